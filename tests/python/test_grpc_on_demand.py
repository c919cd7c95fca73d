#!/usr/bin/python3
"""The control API's gRPC runs only while clients are connected (issue 22).

Method: a real runwarden (the demo runner under it) with its quiet period shortened to
QUIET_MS through RUNWARDEN_GRPC_QUIET_PERIOD_MS, and its log at debug level, which says when
gRPC starts and when it is let go. gRPC's presence is judged from runwarden's threads, read
from /proc/PID/task/*/comm: gRPC 1.51 names its own (GRPC_THREADS). Every check reads a
lasting state, never a passing one: no thread before any client, threads while a channel or
a Watch stream is open, none once the log said "let go" and nobody connected since.
The clients are Python's grpcio, which reads its socket only during a call; that is what
makes a server that closes idle connections fail the client's next call, and why an idle
open channel must keep gRPC up.

Run it from ctest (python_grpc_on_demand), or directly with the environment of
test_control_api.py, whose runwarden harness, stubs and Watch reader it uses.
"""

import glob
import os
import sys
import time
import unittest

import grpc

import test_control_api as api

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from keeper_family import warden_of  # noqa: E402

QUIET_MS = 300
# gRPC 1.51's thread names (comm is cut at 15 bytes), as a server with runwarden's services
# starts them: executors, timers, the callback queue's pollers, the sync reflection poller.
GRPC_THREADS = {"default-executo", "resolver-execut", "grpc_global_tim", "event_engine",
                "timer_manager", "nexting_thread", "grpcpp_sync_ser"}
LET_GO = "gRPC let go after %d ms without a connection" % QUIET_MS


def setUpModule():
    os.environ["RUNWARDEN_GRPC_QUIET_PERIOD_MS"] = str(QUIET_MS)
    api.setUpModule()


def tearDownModule():
    api.tearDownModule()


def grpc_threads(keeper):
    names = []
    warden = warden_of(keeper)
    assert warden, "runwarden %d has no warden" % keeper
    for comm in glob.glob("/proc/%d/task/*/comm" % warden):
        name = api.read(comm).strip()
        if name in GRPC_THREADS:
            names.append(name)
    return sorted(names)


def health_check(channel):
    health = api.pb["health_grpc"].HealthStub(channel)
    return health.Check(api.pb["health"].HealthCheckRequest(), timeout=api.CALL_S).status


class OnDemandTest(api.ControlApiTest):
    def start_debug(self, **kwargs):
        return self.start(flags=("--log-level", "debug"), **kwargs)

    def wait_let_go(self, warden, times):
        if not api.eventually(lambda: warden.log().count(LET_GO) >= times):
            self.fail("gRPC was not let go %d times:\n%s" % (times, warden.log()))
        self.assertEqual(warden.log().count(LET_GO), times, warden.log())

    def assert_no_grpc(self, warden):
        self.assertEqual(grpc_threads(warden.proc.pid), [], warden.log())

    def assert_grpc(self, warden):
        self.assertIn("nexting_thread", grpc_threads(warden.proc.pid), warden.log())

    def test_threads_go_after_the_quiet_period_and_a_watch_is_not_cut(self):
        v1 = api.pb["warden"]
        serving = api.pb["health"].HealthCheckResponse.SERVING
        warden = self.start_debug()
        self.assert_no_grpc(warden)  # nobody has connected yet
        channel = warden.channel()
        self.assertEqual(health_check(channel), serving)
        self.assert_grpc(warden)  # the channel is open
        channel.close()
        self.wait_let_go(warden, 1)
        self.assert_no_grpc(warden)
        # The next connection brings gRPC back; its Watch stream holds it up.
        stub = self.warden_stub(warden)
        watch = api.WatchCollector(stub)
        self.assertTrue(api.eventually(lambda: watch.responses), warden.log())
        self.assert_grpc(warden)
        # A minimum, not a timing bet: a server that let go on a timer with the stream open
        # would have cut it within five quiet periods; a slower machine only waits longer.
        time.sleep(5 * QUIET_MS / 1000)
        self.assertEqual(warden.log().count(LET_GO), 1, warden.log())
        warden.wait_report("job_started 1")
        stub.Shutdown(v1.ShutdownRequest(reason="on-demand test"), timeout=api.CALL_S)
        self.assertEqual(warden.wait_exit(), 0, warden.log())
        self.assertTrue(watch.join(), "the Watch stream did not end")
        self.assertIsNone(watch.error, watch.error)
        self.assertEqual(watch.states()[-1], v1.STATE_GONE)

    def test_an_idle_open_channel_keeps_working_over_tcp(self):
        serving = api.pb["health"].HealthCheckResponse.SERVING
        warden = self.start_debug(listen="tcp://127.0.0.1:%d" % api.free_port())
        channel = warden.channel()
        self.assertEqual(health_check(channel), serving)
        # grpcio does not read an idle connection: had the server closed it meanwhile, or
        # sent it a GOAWAY, this call would fail ("Broken pipe", CANCELLED).
        time.sleep(5 * QUIET_MS / 1000)
        self.assertEqual(health_check(channel), serving)
        self.assertEqual(warden.log().count(LET_GO), 0, warden.log())
        channel.close()
        self.wait_let_go(warden, 1)
        self.assert_no_grpc(warden)
        # A fresh server answers reflection (a sync service) and health as the first did.
        channel = warden.channel()
        self.addCleanup(channel.close)
        self.assertEqual(health_check(channel), serving)
        reflection = api.pb["reflection_grpc"].ServerReflectionStub(channel)
        request = api.pb["reflection"].ServerReflectionRequest(list_services="")
        answers = list(reflection.ServerReflectionInfo(iter([request]), timeout=api.CALL_S))
        names = [s.name for s in answers[0].list_services_response.service]
        self.assertIn("runwarden.v1.Warden", names)
        self.assertIn("grpc.health.v1.Health", names)

    def test_a_bad_quiet_period_refuses_the_start(self):
        os.environ["RUNWARDEN_GRPC_QUIET_PERIOD_MS"] = "10s"
        try:
            warden = api.Warden()
        finally:
            os.environ["RUNWARDEN_GRPC_QUIET_PERIOD_MS"] = str(QUIET_MS)
        self.addCleanup(warden.close)
        self.assertEqual(warden.wait_exit(), 78, warden.log())
        self.assertIn('RUNWARDEN_GRPC_QUIET_PERIOD_MS: expected milliseconds from 100 to '
                      '3600000, got "10s"', warden.log())
        self.assertEqual(warden.report(), [], "a runner was started")


if __name__ == "__main__":
    api.run_tests()

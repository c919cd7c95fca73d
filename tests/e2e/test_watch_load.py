#!/usr/bin/python3
"""A draining runwarden under control-API load, with real processes and loopback sockets.

runwarden drains fake_gitlab_runner.py (one job lasting several heartbeat timeouts of an
Auto Scaling terminate hook, as in test_lifecycle_hook_drain.py) while Python's grpc.aio
holds as many Watch streams open as runwarden allows (watch_streams_max, one of them the
world's own StatusWatch) and floods it with Status calls. The load must change nothing the
cloud sees: fake_autoscaling.py's own record shows the hook never timed out, was kept alive
by heartbeats through the whole job and was completed exactly once, and the runner
finished its job. Every Watch stream follows the
drain to STATE_GONE and ends OK; one stream past the limit is refused with
RESOURCE_EXHAUSTED at once, since the limit is what keeps the warden's subscriber list
bounded. runwarden's resident memory under the load stays within a generous bound of what
it was before.

Bounded in count, and every wait by progress rather than by a speed: WATCH_STREAMS
streams, at most STATUS_CALLS_MAX Status calls from STATUS_CALLERS concurrent callers. A
wait fails only when nothing moved for STALL_S: no stream subscribed while subscribing, no
stream heard from and no Status call answered while draining. A loaded machine only makes
the test longer. Whatever happens, every stream is cancelled and every channel closed
before the test ends, so a failure is reported, never a hang.
  RUNWARDEN_BINARY=build/runwarden RUNWARDEN_PROTO_DIR=messages \\
  /usr/bin/python3 tests/e2e/test_watch_load.py
LOAD_WATCH_STREAMS=N runs fewer streams (a sanitizer build, ten times slower per message);
the refusal past the limit is checked only with the full count.
"""

import asyncio
import os
import shutil
import sys
import tempfile
import unittest

import grpc

from aws_world import INSTANCE_ID, AwsWorld
from drain_world import RUNWARDEN, WAIT_S, DrainWorld
from keeper_family import resident_kb, warden_of

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import test_control_api as control_api  # noqa: E402  (its stub generation, not its tests)

HEARTBEAT_TIMEOUT = 2.0
JOB_SECONDS = 8.0  # four heartbeat timeouts: the load runs through several heartbeats
# status_subscribers_max - internal_subscribers_max (messages/warden_messages.hpp)
# The world's own StatusWatch (`runwarden ctl status --watch`) holds one of them.
WATCH_STREAMS_MAX = 1024 - 16 - 1
WATCH_STREAMS = int(os.environ.get("LOAD_WATCH_STREAMS", WATCH_STREAMS_MAX))
CHANNELS = 16  # the streams spread over several connections, as many clients would
STATUS_CALLERS = 32
STATUS_CALLS_MAX = 20000
CALL_S = 10
STALL_S = WAIT_S  # the longest a wait goes on with nothing moving
RSS_GROWTH_MAX_KB = 256 * 1024  # generous: the point is "bounded", not "small"


def warden_resident_kb(keeper):
    """The warden's resident memory: the big process, where the control API lives."""
    pid = warden_of(keeper)
    assert pid, "runwarden %d has no warden" % keeper
    return resident_kb(pid)


class Progress:
    """A count of things that happened, and waits that last while it keeps moving."""

    def __init__(self):
        self.count = 0
        self._changed = asyncio.Condition()

    async def step(self):
        self.count += 1
        async with self._changed:
            self._changed.notify_all()

    async def until(self, done, what):
        """Returns once done() holds; fails when the count stood still for STALL_S."""
        async with self._changed:
            while not done():
                seen = self.count
                try:
                    await asyncio.wait_for(
                        self._changed.wait_for(lambda: done() or self.count != seen), STALL_S)
                except asyncio.TimeoutError:
                    raise AssertionError("%s: nothing moved for %d s (%d steps so far)"
                                         % (what, STALL_S, self.count)) from None


class Load:
    """The Watch streams and the Status flood, on one asyncio loop."""

    def __init__(self, target, warden_pid, runner_exited):
        self.target, self.pid, self.runner_exited = target, warden_pid, runner_exited
        self.channels = [grpc.aio.insecure_channel(target) for _ in range(CHANNELS)]
        v1_grpc = control_api.pb["warden_grpc"]
        self.stubs = [v1_grpc.WardenStub(channel) for channel in self.channels]
        self.v1 = control_api.pb["warden"]
        self.subscribed = 0
        self.ended = 0
        self.progress = Progress()  # a stream's first status, any status, a Status answer
        self.gone = asyncio.Event()
        self.status_calls = 0
        self.status_errors = []
        self.rss_peak_kb = 0

    async def watch(self, index):
        """The states one stream saw and how it ended."""
        call = self.stubs[index % CHANNELS].Watch(self.v1.WatchRequest())
        states = []
        try:
            async for response in call:
                if not states:
                    self.subscribed += 1
                states.append(response.state)
                if response.state == self.v1.STATE_GONE:
                    self.gone.set()
                await self.progress.step()
            return states, await call.code()
        except grpc.aio.AioRpcError as error:
            return states, error.code()
        finally:
            self.ended += 1
            await self.progress.step()

    async def one_past_the_limit(self):
        call = self.stubs[0].Watch(self.v1.WatchRequest(), timeout=CALL_S)
        try:
            async for _ in call:
                pass
        except grpc.aio.AioRpcError as error:
            return error.code(), error.details()
        return await call.code(), ""

    async def flood(self, index):
        try:
            await self.flood_until_gone(self.stubs[index % CHANNELS])
        finally:
            await self.progress.step()

    async def flood_until_gone(self, stub):
        while not self.gone.is_set() and self.status_calls < STATUS_CALLS_MAX:
            self.status_calls += 1
            try:
                await stub.Status(self.v1.StatusRequest(), timeout=CALL_S)
                await self.progress.step()
            except grpc.aio.AioRpcError as error:
                # runwarden closing its server once gone may end calls under way, but only
                # after the runner exited (its record says so); any other failure counts.
                if error.code() == grpc.StatusCode.UNAVAILABLE and self.runner_exited():
                    return
                self.status_errors.append(error.code())
            self.rss_peak_kb = max(self.rss_peak_kb, warden_resident_kb(self.pid))

    async def close(self, tasks):
        """Cancels what still runs and closes every channel: nothing is left to hang on."""
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in self.channels:
            await channel.close(grace=None)


class WatchLoadTest(unittest.TestCase):
    def setUp(self):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT)
        self.world = DrainWorld([], jobs=1, job_seconds=JOB_SECONDS,
                                extra_config=self.aws.config())
        self.warden = self.world.start_warden(env=self.aws.environment())
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1),
                             "the runner's job never showed in status")

    def tearDown(self):
        self.world.close()
        self.aws.close()

    async def drive(self):
        load = Load("unix:" + self.world.socket, self.warden.pid,
                    lambda: os.path.exists(self.world.record)
                    and "exit 0" in self.world.runner_record())
        rss_before_kb = warden_resident_kb(self.warden.pid)
        watches = [asyncio.ensure_future(load.watch(i)) for i in range(WATCH_STREAMS)]
        floods = []
        try:
            await load.progress.until(lambda: load.subscribed + load.ended == WATCH_STREAMS,
                                      "subscribing the Watch streams")
            refused = None
            if WATCH_STREAMS == WATCH_STREAMS_MAX:
                refused = await load.one_past_the_limit()

            floods = [asyncio.ensure_future(load.flood(i)) for i in range(STATUS_CALLERS)]
            self.aws.autoscaling.command(terminate=INSTANCE_ID)
            self.aws.imds.command(lifecycle_state="Terminated")
            await load.progress.until(lambda: load.ended == WATCH_STREAMS,
                                      "the drain under load")
            # A stream counts as ended in its own finally, before its task has returned:
            # wait for the tasks themselves (they are past their last await but one).
            results = await asyncio.gather(*watches)
            await load.progress.until(lambda: all(flood.done() for flood in floods),
                                      "the Status flood ending")
            return load, rss_before_kb, refused, results
        finally:
            await load.close(watches + floods)

    def test_heartbeats_and_completion_hold_under_watch_and_status_load(self):
        load, rss_before_kb, refused, results = asyncio.run(self.drive())
        self.assertEqual(0, self.warden.wait(timeout=WAIT_S))

        if refused is not None:
            self.assertEqual(grpc.StatusCode.RESOURCE_EXHAUSTED, refused[0], refused)
        v1 = control_api.pb["warden"]
        for states, code in results:
            self.assertEqual(grpc.StatusCode.OK, code)
            self.assertEqual(v1.STATE_GONE, states[-1])
            self.assertIn(v1.STATE_SHUTTING_DOWN, states)
        self.assertEqual([], load.status_errors)
        self.assertGreater(load.status_calls, STATUS_CALLERS, "the Status flood never ran")

        state = self.aws.autoscaling_state()
        self.assertEqual([], state["timeouts"], "the hook timed out under load")
        self.assertEqual([{"instance": INSTANCE_ID, "hook": "drain-runner", "result": "CONTINUE",
                           "accepted": True}], state["completions"])
        beats = [b for b in state["heartbeats"] if b["hook"] == "drain-runner"]
        self.assertGreaterEqual(beats[0]["accepted"], int(JOB_SECONDS / HEARTBEAT_TIMEOUT))
        self.assertEqual(0, beats[0]["refused"])
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])

        growth_kb = load.rss_peak_kb - rss_before_kb
        print("rss before %d kB, peak under load %d kB, %d Status calls"
              % (rss_before_kb, load.rss_peak_kb, load.status_calls))
        self.assertLess(growth_kb, RSS_GROWTH_MAX_KB)


if __name__ == "__main__":
    if not RUNWARDEN or not control_api.PROTO_DIR:
        sys.exit("set RUNWARDEN_BINARY and RUNWARDEN_PROTO_DIR")
    stub_dir = tempfile.mkdtemp(prefix="runwarden-load-stubs-")
    try:
        control_api.generate_stubs(stub_dir)
        outcome = unittest.main(verbosity=2, exit=False).result
    finally:
        shutil.rmtree(stub_dir, ignore_errors=True)
    sys.exit(0 if outcome.wasSuccessful() else 1)

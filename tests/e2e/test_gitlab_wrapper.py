#!/usr/bin/python3
"""`runwarden wrapper` as a drop-in for `gitlab-runner wrapper`, driven by its real callers.

The client below does what GRIT's deployer and gitlab-runner's own Go client do, checked
against dsbutler101/grit deployer/internal/wrapper (client.go, status.go, status_loop.go:
poll CheckStatus once a second, fail on any RPC error, `wait-terminated` ends when the status
is neither running nor in_shutdown; `shutdown` sends InitGracefulShutdown without a callback;
no token) and gitlab-runner's helpers/runner_wrapper/api/client/client.go (plain insecure
channel, a fresh CheckStatusRequest per call). It talks to the real runwarden binary in
wrapper mode supervising tests/e2e/fake_gitlab_runner.py (gitlab-runner 19.4's signal rules
and metrics), over a real loopback TCP socket, with stubs generated at test time from
messages/gitlab_runner/runner_wrapper.proto.

No state is caught by chance: the fake runner is running until the client asks for the
shutdown, holds its last job (FAKE_RUNNER_RELEASE_FILE) until the client has seen
in_shutdown, and runwarden lingers in `stopped` until the test signals it. The test asserts
the whole sequence the client saw: ordered, and with every state in it. Callbacks go to a
real HTTP server on loopback.

Run from ctest, or: RUNWARDEN_BINARY=build/runwarden RUNWARDEN_PROTO_DIR=messages \\
  /usr/bin/python3 tests/e2e/test_gitlab_wrapper.py
"""

import http.server
import importlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

import grpc
from grpc_tools import protoc

from drain_world import free_port

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_RUNNER = os.path.join(HERE, "fake_gitlab_runner.py")
RUNWARDEN = os.environ.get("RUNWARDEN_BINARY", "")
PROTO_DIR = os.environ.get("RUNWARDEN_PROTO_DIR", "")

POLL_S = 1.0  # GRIT's defaultSleepTime
WAIT_S = 60  # the longest any one wait may take; passing runs stay far below it
CALL_S = 10  # deadline of every call

pb = {}


def generate_stubs(out_dir):
    well_known = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    code = protoc.main(["protoc", "-I" + PROTO_DIR, "-I" + well_known,
                        "--python_out=" + out_dir, "--grpc_python_out=" + out_dir,
                        "gitlab_runner/runner_wrapper.proto", "runwarden/v1/warden.proto"])
    if code != 0:
        raise RuntimeError("grpc_tools.protoc failed")
    sys.path.insert(0, out_dir)
    pb["wrapper"] = importlib.import_module("gitlab_runner.runner_wrapper_pb2")
    pb["wrapper_grpc"] = importlib.import_module("gitlab_runner.runner_wrapper_pb2_grpc")
    pb["warden"] = importlib.import_module("runwarden.v1.warden_pb2")
    pb["warden_grpc"] = importlib.import_module("runwarden.v1.warden_pb2_grpc")


_stub_dir = None


def setUpModule():
    global _stub_dir
    if not RUNWARDEN or not PROTO_DIR:
        raise RuntimeError("set RUNWARDEN_BINARY and RUNWARDEN_PROTO_DIR (ctest does)")
    _stub_dir = tempfile.mkdtemp(prefix="runwarden-wrapper-stubs-")
    generate_stubs(_stub_dir)


def tearDownModule():
    if _stub_dir:
        shutil.rmtree(_stub_dir, ignore_errors=True)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def status_name(status):
    return pb["wrapper"].Status.Name(status)


class GritClient:
    """What GRIT's deployer does through gitlab-runner's client: one insecure channel, no
    token, no callback, CheckStatus once a second, any RPC error fails the command."""

    def __init__(self, address):
        self.channel = grpc.insecure_channel(address)
        self.stub = pb["wrapper_grpc"].ProcessWrapperStub(self.channel)
        self.seen = []  # (status name, failureReason) of every CheckStatus, in order

    def connect(self):
        # ConnectWithTimeout: wait until the channel is ready (GRIT's default 30 s).
        grpc.channel_ready_future(self.channel).result(timeout=WAIT_S)

    def check_status(self):
        answer = self.stub.CheckStatus(pb["wrapper"].CheckStatusRequest(), timeout=CALL_S)
        self.seen.append((status_name(answer.status), answer.failureReason))
        return answer

    def loop_status_check(self, check_for_running, on_poll=lambda answer: None):
        """status_loop.go loopStatusCheckWithSleep, with GRIT's IsRunning()."""
        started = time.monotonic()
        while True:
            answer = self.check_status()
            on_poll(answer)
            running = status_name(answer.status) in ("running", "in_shutdown")
            if running == check_for_running:
                return answer
            if time.monotonic() - started > WAIT_S:
                raise AssertionError("status check loop timed out: %s" % self.seen)
            time.sleep(POLL_S)

    def poll_until_stopped(self):
        """The Go client's view of wait-terminated for a runner that never got a shutdown
        call: before its process starts the wrapper says unknown, which IsRunning() also
        reads as not running, so these tests wait for stopped itself."""
        started = time.monotonic()
        while True:
            answer = self.check_status()
            if status_name(answer.status) == "stopped":
                return answer
            if time.monotonic() - started > WAIT_S:
                raise AssertionError("never stopped: %s" % self.seen)
            time.sleep(POLL_S)

    def shutdown(self):
        """GRIT `deployer shutdown`: InitGracefulShutdown(NewInitGracefulShutdownRequest(nil))."""
        return self.stub.InitGracefulShutdown(pb["wrapper"].InitGracefulShutdownRequest(),
                                              timeout=CALL_S)

    def close(self):
        self.channel.close()


class CallbackReceiver:
    """Records every request a shutdown callback makes, whatever its method."""

    def __init__(self):
        received = self.received = []
        arrived = self.arrived = threading.Condition()

        class Handler(http.server.BaseHTTPRequestHandler):
            def handle_one(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length) if length else b""
                headers = {name.lower(): value for name, value in self.headers.items()}
                with arrived:
                    received.append((self.command, self.path, headers, body))
                    arrived.notify_all()
                self.send_response(204)
                self.end_headers()

            def __getattr__(self, name):
                if name.startswith("do_"):
                    return self.handle_one
                raise AttributeError(name)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count):
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.received) >= count, timeout=WAIT_S)
        return list(self.received)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Wrapper:
    """runwarden wrapper around the fake gitlab-runner, in its own directory."""

    def __init__(self, runner_command=None, flags=(), listen=None, config_toml=None):
        self.dir = tempfile.mkdtemp(prefix="runwarden-wrapper-")
        self.port = free_port()
        self.http_port = free_port()
        self.metrics_port = free_port()
        self.listen = listen or "tcp://127.0.0.1:%d" % self.port
        self.release = os.path.join(self.dir, "release")
        self.record = os.path.join(self.dir, "runner-record")
        self.log_path = os.path.join(self.dir, "runwarden.log")
        environment = dict(os.environ, HOME=self.dir, FAKE_RUNNER_RELEASE_FILE=self.release)
        environment.pop("LISTEN_ADDRESS", None)
        # gitlab-runner's own config.toml, found the way gitlab-runner finds it. Its
        # shutdown_timeout sets the kill timeout: long enough that a loaded machine's slow
        # runner still ends by its forceful signal, not by SIGKILL.
        config = os.path.join(self.dir, "gitlab-runner-config.toml")
        with open(config, "w") as f:
            f.write(config_toml if config_toml is not None else
                    'concurrent = 4\nshutdown_timeout = 15\nlisten_address = "127.0.0.1:%d"\n'
                    % self.metrics_port)
        environment["CONFIG_FILE"] = config
        # The fake runner holds each job count until scraped three times: scrape often.
        own_config = os.path.join(self.dir, "runwarden.toml")
        with open(own_config, "w") as f:
            f.write('[runner]\nmetrics_interval = "250ms"\n')
        if runner_command is None:
            runner_command = [sys.executable, FAKE_RUNNER, str(self.metrics_port), "1", "0.2",
                              self.record]
        args = [RUNWARDEN, "wrapper", "--config", own_config, "--grpc-listen", self.listen,
                "--http-listen", "127.0.0.1:%d" % self.http_port,
                "--state-dir", os.path.join(self.dir, "state"), *flags, "--", *runner_command]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=subprocess.STDOUT, env=environment,
                                         start_new_session=True)

    def address(self):
        return self.listen[len("tcp://"):]

    def log(self):
        return read(self.log_path)

    def runner_record(self):
        return read(self.record).splitlines()

    def http_get(self, path):
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.http_port, path),
                                        timeout=CALL_S) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code

    def wait_exit(self, timeout=WAIT_S):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=WAIT_S)
        for line in self.runner_record():
            words = line.split()
            if words[0] == "start":
                try:
                    os.killpg(int(words[1]), signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        shutil.rmtree(self.dir, ignore_errors=True)


def collapse(states):
    """The distinct states in the order first seen: [running, running, x] -> [running, x]."""
    out = []
    for state in states:
        if not out or out[-1] != state:
            out.append(state)
    return out


class WrapperTest(unittest.TestCase):
    def start(self, **kwargs):
        wrapper = Wrapper(**kwargs)
        self.addCleanup(wrapper.close)
        return wrapper

    def client(self, wrapper):
        client = GritClient(wrapper.address())
        self.addCleanup(client.close)
        client.connect()
        return client

    def test_grit_wait_terminated_sees_every_state_and_stopped_while_lingering(self):
        wrapper = self.start()
        client = self.client(wrapper)
        # deployer wait-healthy
        client.loop_status_check(check_for_running=True)
        self.assertEqual(client.seen[-1], ("running", ""))
        # deployer shutdown
        answer = client.shutdown()
        self.assertEqual(status_name(answer.status), "in_shutdown")

        # deployer wait-terminated; the runner's last job ends once in_shutdown was seen,
        # and runwarden's own status showed the runner's word for its state.
        warden = pb["warden_grpc"].WardenStub(client.channel)

        def release_once_in_shutdown(answer):
            if status_name(answer.status) != "in_shutdown" or os.path.exists(wrapper.release):
                return
            deadline = time.monotonic() + WAIT_S
            while warden.Status(pb["warden"].StatusRequest(),
                                timeout=CALL_S).runner_state != "graceful-shutdown":
                self.assertLess(time.monotonic(), deadline, "the runner's state never shown")
                time.sleep(0.05)
            open(wrapper.release, "w").close()

        final = client.loop_status_check(check_for_running=False,
                                         on_poll=release_once_in_shutdown)
        self.assertEqual((status_name(final.status), final.failureReason), ("stopped", ""))
        # runwarden lingers: more polls, the shutdown calls, all answer OK with stopped.
        for _ in range(3):
            time.sleep(POLL_S)
            self.assertEqual(client.check_status().status, pb["wrapper"].stopped)
        again = client.shutdown()
        self.assertEqual(status_name(again.status), "stopped")
        forced = client.stub.InitForcefulShutdown(pb["wrapper"].InitForcefulShutdownRequest(),
                                                  timeout=CALL_S)
        self.assertEqual(status_name(forced.status), "stopped")
        self.assertEqual(wrapper.http_get("/readyz"), 503)
        self.assertEqual(wrapper.http_get("/healthz"), 200)
        # unknown comes first only when the client asked before the runner had started.
        states = collapse([state for state, _ in client.seen])
        self.assertEqual(states[1:] if states[0] == "unknown" else states,
                         ["running", "in_shutdown", "stopped"], client.seen)
        self.assertIsNone(wrapper.proc.poll(), "runwarden left before it was signalled")
        wrapper.proc.send_signal(signal.SIGTERM)
        self.assertEqual(wrapper.wait_exit(), 0, wrapper.log())
        record = wrapper.runner_record()
        self.assertEqual(["exit 0"], record[1:], record)  # drained, never aborted
        self.assertIn("control.linger_after_gone", wrapper.log())

    def test_one_sigterm_drains_and_exits_without_lingering(self):
        # GRIT stops the wrapper with one SIGTERM (a unit or a container service), and
        # gitlab-runner's wrapper exits once its runner is gone (commands/wrapper.go): a drain
        # that a signal started ends with runwarden's exit, though wrapper mode lingers.
        wrapper = self.start()
        client = self.client(wrapper)
        client.loop_status_check(check_for_running=True)
        wrapper.proc.send_signal(signal.SIGTERM)
        open(wrapper.release, "w").close()
        self.assertEqual(wrapper.wait_exit(), 0, wrapper.log())
        record = wrapper.runner_record()
        self.assertEqual(["exit 0"], record[1:], record)  # drained, never aborted
        self.assertNotIn("staying up", wrapper.log())

    def test_failure_reasons_in_gitlab_runners_words(self):
        # InitForcefulShutdown: gitlab-runner aborts its jobs and exits 1.
        wrapper = self.start()
        client = self.client(wrapper)
        client.loop_status_check(check_for_running=True)
        forced = client.stub.InitForcefulShutdown(pb["wrapper"].InitForcefulShutdownRequest(),
                                                  timeout=CALL_S)
        self.assertEqual(status_name(forced.status), "in_shutdown")
        final = client.loop_status_check(check_for_running=False)
        self.assertEqual((status_name(final.status), final.failureReason),
                         ("stopped", "exit status 1"))
        # A runner that cannot start: never restarted, stopped with the start failure.
        missing = self.start(runner_command=[os.path.join(HERE, "no-such-gitlab-runner"), "run"])
        client = self.client(missing)
        final = client.poll_until_stopped()
        self.assertEqual(status_name(final.status), "stopped")
        self.assertTrue(final.failureReason.startswith("failed to start process: "),
                        final.failureReason)
        # A runner killed by a signal, as Go's exec package says it.
        killed = self.start(runner_command=["/bin/sh", "-c", "kill -KILL $$"])
        client = self.client(killed)
        final = client.poll_until_stopped()
        self.assertEqual((status_name(final.status), final.failureReason),
                         ("stopped", "signal: killed"))
        self.assertIsNone(killed.proc.poll(), "runwarden left before it was signalled")

    def test_shutdown_callback_as_gitlab_runner_sends_it(self):
        receiver = CallbackReceiver()
        self.addCleanup(receiver.close)
        wrapper = self.start()
        client = self.client(wrapper)
        client.loop_status_check(check_for_running=True)
        wrapper_pb = pb["wrapper"]
        # The two refusals, each naming its rule; nothing changes.
        for url, words in (("ftp://example.com/done", "http:// or https://"),
                           ("http://169.254.169.254/latest/meta-data/", "instance-metadata")):
            request = wrapper_pb.InitGracefulShutdownRequest()
            request.shutdownCallback.url = url
            with self.assertRaises(grpc.RpcError) as refused:
                client.stub.InitGracefulShutdown(request, timeout=CALL_S)
            self.assertEqual(refused.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
            self.assertIn(words, refused.exception.details())
            self.assertIn("rule", refused.exception.details())
        self.assertEqual(status_name(client.check_status().status), "running")
        # A method and headers without a URL: ignored, as gitlab-runner ignores them.
        request = wrapper_pb.InitGracefulShutdownRequest()
        request.shutdownCallback.method = "post"
        request.shutdownCallback.headers["X-Ignored"] = "1"
        self.assertEqual(status_name(client.stub.InitGracefulShutdown(
            request, timeout=CALL_S).status), "in_shutdown")
        # The first callback, then a later one that replaces it.
        first = wrapper_pb.InitGracefulShutdownRequest()
        first.shutdownCallback.url = receiver.base + "/first"
        first.shutdownCallback.method = "put"
        client.stub.InitGracefulShutdown(first, timeout=CALL_S)
        second = wrapper_pb.InitGracefulShutdownRequest()
        second.shutdownCallback.url = receiver.base + "/second"
        for index in range(40):
            second.shutdownCallback.headers["X-Header-%d" % index] = "value-%d" % index
        client.stub.InitGracefulShutdown(second, timeout=CALL_S)
        self.assertEqual(receiver.received, [], "a callback went out before gone")
        open(wrapper.release, "w").close()
        client.loop_status_check(check_for_running=False)
        received = receiver.wait_for(1)
        self.assertEqual(len(received), 1, received)
        method, path, headers, body = received[0]
        self.assertEqual((method, path), ("GET", "/second"))
        self.assertEqual(body, b"")
        self.assertNotIn("content-type", headers)
        self.assertNotIn("content-length", headers)
        self.assertEqual(headers.get("x-header-39"), "value-39")
        self.assertNotIn("x-ignored", headers)
        # Still lingering; only the replacement was sent.
        time.sleep(POLL_S)
        self.assertEqual(status_name(client.check_status().status), "stopped")
        self.assertEqual(len(receiver.received), 1, receiver.received)

    def test_unauthenticated_listener_off_loopback_only_by_named_opt_in(self):
        listen = "tcp://0.0.0.0:%d" % free_port()
        refused = self.start(listen=listen)
        self.assertEqual(refused.wait_exit(), 78, refused.log())
        self.assertIn("insecure_unauthenticated_wrapper_api", refused.log())
        opened = self.start(listen=listen,
                            flags=("--insecure-unauthenticated-wrapper-api", "true"))
        client = GritClient("127.0.0.1:%s" % listen.rsplit(":", 1)[1])
        self.addCleanup(client.close)
        client.connect()
        client.loop_status_check(check_for_running=True)
        self.assertIn("INSECURE", opened.log())
        warden = pb["warden_grpc"].WardenStub(client.channel)
        self.assertEqual(warden.Status(pb["warden"].StatusRequest(), timeout=CALL_S).state,
                         pb["warden"].STATE_RUNNING)
        with self.assertRaises(grpc.RpcError) as closed:
            warden.Shutdown(pb["warden"].ShutdownRequest(), timeout=CALL_S)
        self.assertEqual(closed.exception.code(), grpc.StatusCode.PERMISSION_DENIED)
        self.assertIn("insecure_unauthenticated_warden_shutdown", closed.exception.details())
        self.assertEqual(status_name(client.check_status().status), "running")


if __name__ == "__main__":
    unittest.main(verbosity=2)

#!/usr/bin/python3
"""The control API, driven from outside the way its users drive it.

Each test starts the real runwarden binary supervising the real demo runner (kind gitlab:
SIGQUIT drains, SIGTERM aborts), talks to it over gRPC with stubs generated at test time
from messages/*.proto (grpc_tools.protoc, into a temporary directory), or runs
`runwarden ctl`, and judges by the answers, by runwarden's exit code and log, and by the
demo runner's report file (signals received, jobs finished, exit code). Health and
reflection use minimal copies of their public protos, which are wire-compatible subsets.

Every wait is bounded (WAIT_S) and every process a test starts is killed at its end,
runners included (found by the pids in the report). Run it from ctest, or directly:
  RUNWARDEN_BINARY=build/runwarden DEMO_RUNNER_BINARY=build/runwarden-demo-runner \\
  RUNWARDEN_PROTO_DIR=messages /usr/bin/python3 tests/python/test_control_api.py
"""

import http.server
import importlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import grpc
from grpc_tools import protoc

RUNWARDEN = os.environ.get("RUNWARDEN_BINARY", "")
DEMO_RUNNER = os.environ.get("DEMO_RUNNER_BINARY", "")
PROTO_DIR = os.environ.get("RUNWARDEN_PROTO_DIR", "")

WAIT_S = 15  # the longest any one wait may take; passing tests stay far below it
CALL_S = 5  # deadline of every unary call
TOKEN = "rw-test-token-5b1f0e7c"  # must never show up in runwarden's output

HEALTH_PROTO = """
syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }
"""

REFLECTION_PROTO = """
syntax = "proto3";
package grpc.reflection.v1alpha;
message ServerReflectionRequest {
  string host = 1;
  oneof message_request { string file_containing_symbol = 4; string list_services = 7; }
}
message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
message ServiceResponse { string name = 1; }
message ListServiceResponse { repeated ServiceResponse service = 1; }
message ErrorResponse { int32 error_code = 1; string error_message = 2; }
message ServerReflectionResponse {
  string valid_host = 1;
  ServerReflectionRequest original_request = 2;
  oneof message_response {
    FileDescriptorResponse file_descriptor_response = 4;
    ListServiceResponse list_services_response = 6;
    ErrorResponse error_response = 7;
  }
}
service ServerReflection {
  rpc ServerReflectionInfo(stream ServerReflectionRequest)
      returns (stream ServerReflectionResponse);
}
"""

# Filled by setUpModule with the generated modules.
pb = {}


def generate_stubs(out_dir):
    extra_dir = os.path.join(out_dir, "extra")
    os.makedirs(extra_dir)
    for name, text in (("health.proto", HEALTH_PROTO), ("reflection.proto", REFLECTION_PROTO)):
        with open(os.path.join(extra_dir, name), "w") as f:
            f.write(text)
    well_known = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    jobs = [
        (PROTO_DIR, ["runwarden/v1/warden.proto", "gitlab_runner/runner_wrapper.proto"]),
        (extra_dir, ["health.proto", "reflection.proto"]),
    ]
    for include, files in jobs:
        code = protoc.main(["protoc", "-I" + include, "-I" + well_known,
                            "--python_out=" + out_dir, "--grpc_python_out=" + out_dir] + files)
        if code != 0:
            raise RuntimeError("grpc_tools.protoc failed on %s" % files)
    sys.path.insert(0, out_dir)
    for key, module in (("warden", "runwarden.v1.warden_pb2"),
                        ("warden_grpc", "runwarden.v1.warden_pb2_grpc"),
                        ("wrapper", "gitlab_runner.runner_wrapper_pb2"),
                        ("wrapper_grpc", "gitlab_runner.runner_wrapper_pb2_grpc"),
                        ("health", "health_pb2"), ("health_grpc", "health_pb2_grpc"),
                        ("reflection", "reflection_pb2"),
                        ("reflection_grpc", "reflection_pb2_grpc")):
        pb[key] = importlib.import_module(module)


_stub_dir = None


def setUpModule():
    global _stub_dir
    for name, value in (("RUNWARDEN_BINARY", RUNWARDEN), ("DEMO_RUNNER_BINARY", DEMO_RUNNER),
                        ("RUNWARDEN_PROTO_DIR", PROTO_DIR)):
        if not value:
            raise RuntimeError("set %s (ctest does)" % name)
    _stub_dir = tempfile.mkdtemp(prefix="runwarden-py-stubs-")
    generate_stubs(_stub_dir)


def tearDownModule():
    if _stub_dir:
        shutil.rmtree(_stub_dir, ignore_errors=True)


def eventually(condition, timeout=WAIT_S, interval=0.02):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            return value
        time.sleep(interval)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


class Warden:
    """One runwarden supervising the demo runner, with its own directory and socket."""

    def __init__(self, listen=None, flags=(), demo=("--job-seconds", "2", "--job-interval",
                                                   "0.3")):
        self.dir = tempfile.mkdtemp(prefix="runwarden-py-")
        self.socket_path = os.path.join(self.dir, "control.sock")
        self.listen = listen or "unix://" + self.socket_path
        self.report_path = os.path.join(self.dir, "report")
        self.log_path = os.path.join(self.dir, "warden.log")
        args = [RUNWARDEN, "run", "--kind", "gitlab", "--grpc-listen", self.listen,
                "--http-listen", "none", "--state-dir", os.path.join(self.dir, "state"),
                *flags, "--", DEMO_RUNNER, "--report",
                self.report_path, *demo]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)

    def target(self):
        if self.listen.startswith("unix://"):
            return "unix:" + self.listen[len("unix://"):]
        return self.listen[len("tcp://"):]

    def channel(self, credentials=None):
        if credentials is None:
            return grpc.insecure_channel(self.target())
        return grpc.secure_channel(self.target(), credentials)

    def log(self):
        return read(self.log_path)

    def report(self):
        return read(self.report_path).splitlines()

    def wait_listening(self):
        ok = eventually(lambda: "control API listening" in self.log()
                        or self.proc.poll() is not None)
        if not ok or self.proc.poll() is not None:
            raise AssertionError("runwarden did not start listening:\n" + self.log())

    def wait_report(self, line):
        if not eventually(lambda: line in self.report()):
            raise AssertionError("no %r in the report:\n%s" % (line, "\n".join(self.report())))

    def wait_exit(self, timeout=WAIT_S):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=WAIT_S)
        for line in self.report():
            words = line.split()
            if len(words) == 6 and words[0] == "pid":
                kill_demo_runner(int(words[1]))
        shutil.rmtree(self.dir, ignore_errors=True)


def kill_demo_runner(pid):
    """SIGKILLs pid and its group, if it is still a demo runner (pids get reused)."""
    if read("/proc/%d/comm" % pid).startswith("runwarden-demo"):
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class CallbackServer:
    """Takes the shutdown callbacks runwarden sends once the runner is gone."""

    def __init__(self):
        received = self.received = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                headers = {name.lower(): value for name, value in self.headers.items()}
                received.append((self.command, self.path, headers, self.rfile.read(length)))
                self.send_response(204)
                self.end_headers()

            do_GET = do_POST  # a callback without a method is a GET, as gitlab-runner's

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/runner-gone" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class WatchCollector:
    """Reads a Watch stream on a thread until it ends."""

    def __init__(self, stub, metadata=None):
        self.responses = []
        self.error = None
        self.call = stub.Watch(pb["warden"].WatchRequest(), timeout=3 * WAIT_S,
                               metadata=metadata)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for response in self.call:
                self.responses.append(response)
        except grpc.RpcError as error:
            self.error = error

    def join(self):
        self.thread.join(timeout=WAIT_S)
        return not self.thread.is_alive()

    def states(self):
        return [r.state for r in self.responses]


class ControlApiTest(unittest.TestCase):
    """Shared helpers; each test owns its runwarden and kills it at the end."""

    def start(self, **kwargs):
        warden = Warden(**kwargs)
        self.addCleanup(warden.close)
        warden.wait_listening()
        return warden

    def warden_stub(self, warden, credentials=None):
        channel = warden.channel(credentials)
        self.addCleanup(channel.close)
        return pb["warden_grpc"].WardenStub(channel)

    def wait_state(self, stub, state, **kwargs):
        request = pb["warden"].StatusRequest()
        status = eventually(lambda: (lambda s: s if s.state == state else None)(
            stub.Status(request, timeout=CALL_S, **kwargs)))
        self.assertIsNotNone(status, "never reached state %d" % state)
        return status

    def ctl(self, warden, *args, token_file=None, preexec=None):
        command = [RUNWARDEN, "ctl", "--addr", warden.listen]
        if token_file:
            command += ["--token-file", token_file]
        return subprocess.run(command + list(args), capture_output=True, text=True,
                              timeout=WAIT_S, preexec_fn=preexec)


class StatusTest(ControlApiTest):
    def check_status(self, warden):
        v1 = pb["warden"]
        stub = self.warden_stub(warden)
        status = self.wait_state(stub, v1.STATE_RUNNING)
        self.assertEqual(status.drain_phase, v1.DRAIN_PHASE_NONE)
        self.assertGreater(status.runner_pid, 0)
        self.assertFalse(status.HasField("jobs_running"))  # unknown: no metrics poller yet
        self.assertFalse(status.HasField("drain_started_at"))
        self.assertFalse(status.HasField("exit_code"))
        self.assertGreater(status.version, 0)
        now = time.time()
        self.assertLess(abs(status.observed_at.ToNanoseconds() / 1e9 - now), 5)
        self.assertLessEqual(status.state_since.ToNanoseconds(),
                             status.observed_at.ToNanoseconds())

    def test_status_over_unix_socket(self):
        self.check_status(self.start())

    def test_status_over_tcp(self):
        self.check_status(self.start(listen="tcp://127.0.0.1:%d" % free_port()))

    def test_unknown_fields_are_tolerated(self):
        warden = self.start()
        channel = warden.channel()
        self.addCleanup(channel.close)
        # StatusRequest{} plus field 99 (varint 7), which no runwarden knows.
        call = channel.unary_unary("/runwarden.v1.Warden/Status",
                                   request_serializer=lambda raw: raw,
                                   response_deserializer=pb["warden"].StatusResponse.FromString)
        status = call(b"\x98\x06\x07", timeout=CALL_S)
        self.assertNotEqual(status.state, pb["warden"].STATE_UNSPECIFIED)


class DrainTest(ControlApiTest):
    def test_watch_shutdown_with_callback_and_second_shutdown(self):
        v1 = pb["warden"]
        callbacks = CallbackServer()
        self.addCleanup(callbacks.close)
        warden = self.start()
        stub = self.warden_stub(warden)
        self.wait_state(stub, v1.STATE_RUNNING)
        warden.wait_report("job_started 1")
        watch = WatchCollector(stub)
        self.assertTrue(eventually(lambda: watch.responses))
        request = v1.ShutdownRequest(reason="scale-in test")
        request.callback.url = callbacks.url
        request.callback.method = "POST"
        request.callback.headers["X-Test"] = "drain-1"
        first = stub.Shutdown(request, timeout=CALL_S)
        self.assertEqual(first.state, v1.STATE_SHUTTING_DOWN)
        # The demo runner has no metrics, so a drain within drain.start_grace of its start
        # holds the graceful signal until the grace has passed (its handlers may not be in).
        self.assertIn(first.drain_phase,
                      (v1.DRAIN_PHASE_WAITING_FOR_RUNNER, v1.DRAIN_PHASE_DRAINING))
        self.assertEqual(first.trigger, v1.TRIGGER_CONTROL_API)
        self.assertEqual(first.reason, "scale-in test")
        self.assertTrue(first.HasField("drain_started_at"))
        second = stub.Shutdown(v1.ShutdownRequest(reason="again"), timeout=CALL_S)
        self.assertEqual(second.state, v1.STATE_SHUTTING_DOWN)
        self.assertEqual(second.drain_started_at, first.drain_started_at)
        self.assertEqual(second.reason, "scale-in test")
        self.assertEqual(warden.wait_exit(), 0, warden.log())
        self.assertTrue(watch.join(), "the Watch stream did not end")
        self.assertIsNone(watch.error, watch.error)
        states = watch.states()
        self.assertEqual(states[0], v1.STATE_RUNNING)
        self.assertIn(v1.STATE_SHUTTING_DOWN, states)
        self.assertEqual(states[-1], v1.STATE_GONE)
        self.assertEqual(states, sorted(states), "status moved backwards")
        gone = watch.responses[-1]
        self.assertEqual(gone.exit_code.value, 0)
        self.assertEqual(gone.drain_phase, v1.DRAIN_PHASE_DONE)
        report = warden.report()
        self.assertEqual(report.count("signal SIGQUIT"), 1, report)
        self.assertNotIn("signal SIGTERM", report)
        self.assertEqual(report[-1], "exit 0")
        self.assertFalse(os.path.exists(warden.socket_path), "socket left behind")
        # runwarden sends the callbacks before it exits; the second call brought none.
        self.assertEqual(len(callbacks.received), 1, callbacks.received)
        method, path, headers, _ = callbacks.received[0]
        self.assertEqual((method, path), ("POST", "/runner-gone"))
        self.assertEqual(headers.get("x-test"), "drain-1")

    def test_gitlab_wrapper_api(self):
        wrapper = pb["wrapper"]
        callbacks = CallbackServer()
        self.addCleanup(callbacks.close)
        warden = self.start()
        channel = warden.channel()
        self.addCleanup(channel.close)
        stub = pb["wrapper_grpc"].ProcessWrapperStub(channel)
        status = eventually(lambda: stub.CheckStatus(wrapper.CheckStatusRequest(),
                                                     timeout=CALL_S).status == wrapper.running)
        self.assertTrue(status)
        warden.wait_report("job_started 1")
        request = wrapper.InitGracefulShutdownRequest()
        request.shutdownCallback.url = callbacks.url
        request.shutdownCallback.headers["Authorization"] = "Bearer callback-secret"
        graceful = stub.InitGracefulShutdown(request, timeout=CALL_S)
        self.assertEqual(graceful.status, wrapper.in_shutdown)
        self.assertEqual(graceful.failureReason, "")
        checked = stub.CheckStatus(wrapper.CheckStatusRequest(), timeout=CALL_S)
        self.assertEqual(checked.status, wrapper.in_shutdown)
        warden.wait_report("signal SIGQUIT")
        forceful = stub.InitForcefulShutdown(wrapper.InitForcefulShutdownRequest(),
                                             timeout=CALL_S)
        self.assertIn(forceful.status, (wrapper.in_shutdown, wrapper.stopped))
        code = warden.wait_exit()
        report = warden.report()
        self.assertEqual(code, 1, warden.log())  # the demo runner's "jobs aborted"
        self.assertLess(report.index("signal SIGQUIT"), report.index("signal SIGTERM"))
        self.assertEqual(report[-1], "exit 1")
        self.assertEqual([(r[0], r[2].get("authorization"), r[3]) for r in callbacks.received],
                         [("GET", "Bearer callback-secret", b"")])
        self.assertNotIn("callback-secret", warden.log())


class ServicesTest(ControlApiTest):
    def test_health_and_reflection(self):
        warden = self.start()
        channel = warden.channel()
        self.addCleanup(channel.close)
        health = pb["health_grpc"].HealthStub(channel)
        answer = health.Check(pb["health"].HealthCheckRequest(), timeout=CALL_S)
        self.assertEqual(answer.status, pb["health"].HealthCheckResponse.SERVING)
        reflection = pb["reflection_grpc"].ServerReflectionStub(channel)
        request = pb["reflection"].ServerReflectionRequest
        answers = list(reflection.ServerReflectionInfo(
            iter([request(list_services=""),
                  request(file_containing_symbol="runwarden.v1.Warden")]), timeout=CALL_S))
        names = {s.name for s in answers[0].list_services_response.service}
        self.assertIn("runwarden.v1.Warden", names)
        self.assertIn("gitlab_com.gitlab_runner.runner_wrapper.ProcessWrapper", names)
        self.assertIn("grpc.health.v1.Health", names)
        from google.protobuf import descriptor_pb2
        files = [descriptor_pb2.FileDescriptorProto.FromString(raw)
                 for raw in answers[1].file_descriptor_response.file_descriptor_proto]
        self.assertIn("runwarden/v1/warden.proto", [f.name for f in files])


class SecurityTest(ControlApiTest):
    def test_token_over_tcp(self):
        v1 = pb["warden"]
        directory = tempfile.mkdtemp(prefix="runwarden-py-token-")
        self.addCleanup(shutil.rmtree, directory, True)
        token_path = os.path.join(directory, "token")
        with open(token_path, "w") as f:
            f.write(TOKEN + "\n")
        os.chmod(token_path, 0o644)
        warden = self.start(listen="tcp://127.0.0.1:%d" % free_port(),
                            flags=("--token-file", token_path))
        stub = self.warden_stub(warden)
        good = [("authorization", "Bearer " + TOKEN)]
        for metadata in (None, [("authorization", "Bearer wrong")],
                         [("authorization", TOKEN)]):
            with self.assertRaises(grpc.RpcError) as refused:
                stub.Status(v1.StatusRequest(), timeout=CALL_S, metadata=metadata)
            self.assertEqual(refused.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        channel = warden.channel()
        self.addCleanup(channel.close)
        wrapper = pb["wrapper_grpc"].ProcessWrapperStub(channel)
        with self.assertRaises(grpc.RpcError) as refused:
            wrapper.InitForcefulShutdown(pb["wrapper"].InitForcefulShutdownRequest(),
                                         timeout=CALL_S)
        self.assertEqual(refused.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        with self.assertRaises(grpc.RpcError) as refused:
            list(stub.Watch(v1.WatchRequest(), timeout=CALL_S))
        self.assertEqual(refused.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        status = self.wait_state(stub, v1.STATE_RUNNING, metadata=good)
        self.assertGreater(status.runner_pid, 0)
        warden.wait_report("job_started 1")  # a runner not yet ready dies of SIGQUIT
        without = self.ctl(warden, "status")
        self.assertEqual(without.returncode, 80, without.stderr)
        self.assertIn("the token was refused", without.stderr)
        done = self.ctl(warden, "shutdown", "--force", "--wait", token_file=token_path)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertEqual(warden.wait_exit(), 1)
        for text in (warden.log(), done.stdout, done.stderr, without.stderr):
            self.assertNotIn(TOKEN, text)
        # Six refused calls, five of them at once: at most one line per 10 s window (the
        # ctl call may fall in a second one), never what was sent.
        log = warden.log()
        self.assertIn(log.count("without a valid bearer token"), (1, 2), log)
        self.assertNotIn("Bearer wrong", log)
        # The token file was written with the default umask: readable by all, and said so.
        self.assertIn("token file %s has mode 0644" % token_path, log)

    def test_non_loopback_tcp_needs_a_token(self):
        listen = "tcp://0.0.0.0:%d" % free_port()
        refused = Warden(listen=listen)
        self.addCleanup(refused.close)
        self.assertEqual(refused.wait_exit(), 78, refused.log())
        self.assertIn("without a token", refused.log())
        self.assertFalse(os.path.exists(refused.report_path), "the runner was started")
        directory = tempfile.mkdtemp(prefix="runwarden-py-token-")
        self.addCleanup(shutil.rmtree, directory, True)
        token_path = os.path.join(directory, "token")
        with open(token_path, "w") as f:
            f.write(TOKEN)
        allowed = self.start(listen=listen, flags=("--token-file", token_path))
        self.assertIn("not encrypted", allowed.log())
        self.assertNotIn(TOKEN, allowed.log())

    def test_port_in_use_stops_the_runner_and_exits_69(self):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            warden = Warden(listen="tcp://127.0.0.1:%d" % taken.getsockname()[1])
            self.addCleanup(warden.close)
            self.assertEqual(warden.wait_exit(), 69, warden.log())
        self.assertIn("cannot listen on " + warden.listen, warden.log())
        # The runner, which had started, was stopped and reaped, not left behind.
        for line in warden.report():
            if line.startswith("pid "):
                self.assertFalse(read("/proc/%s/comm" % line.split()[1]).startswith(
                    "runwarden-demo"), "runner left running")

    @unittest.skipUnless(shutil.which("openssl"), "needs the openssl command")
    def test_tls(self):
        directory = tempfile.mkdtemp(prefix="runwarden-py-tls-")
        self.addCleanup(shutil.rmtree, directory, True)
        cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                        "1", "-subj", "/CN=127.0.0.1", "-addext",
                        "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True, timeout=WAIT_S)
        config = os.path.join(directory, "runwarden.toml")
        with open(config, "w") as f:
            f.write('[control]\ntls_cert_file = "%s"\ntls_key_file = "%s"\n' % (cert, key))
        warden = self.start(listen="tcp://127.0.0.1:%d" % free_port(),
                            flags=("--config", config))
        with open(cert, "rb") as f:
            credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
        stub = self.warden_stub(warden, credentials)
        self.wait_state(stub, pb["warden"].STATE_RUNNING)
        answer = self.ctl(warden, "--tls-ca", cert, "status", "--json")
        self.assertEqual(answer.returncode, 0, answer.stderr)
        self.assertEqual(json.loads(answer.stdout)["state"], "running")


class BadInputTest(ControlApiTest):
    def test_bad_shutdown_requests_change_nothing(self):
        v1 = pb["warden"]
        warden = self.start()
        stub = self.warden_stub(warden)
        before = self.wait_state(stub, v1.STATE_RUNNING)
        negative = v1.ShutdownRequest(reason="negative")
        negative.deadline.seconds = -5
        ftp = v1.ShutdownRequest()
        ftp.callback.url = "ftp://example.com/done"
        malformed = v1.ShutdownRequest()
        malformed.callback.url = "http://"
        injected = v1.ShutdownRequest()
        injected.callback.url = "http://127.0.0.1:9/x"
        injected.callback.headers["X-A"] = "one\r\nX-Evil: two"
        crowded = v1.ShutdownRequest()
        crowded.callback.url = "http://127.0.0.1:9/x"
        for index in range(257):
            crowded.callback.headers["X-H%d" % index] = "v"
        bulky = v1.ShutdownRequest()
        bulky.callback.url = "http://127.0.0.1:9/x"
        bulky.callback.headers["X-Big"] = "b" * (49 * 1024)
        expected = {"negative": "must not be negative", "ftp": "http:// or https://",
                    "malformed": "no valid host", "injected": "line break",
                    "crowded": "at most 256 headers", "bulky": "more than 49152 bytes"}
        for name, request in (("negative", negative), ("ftp", ftp), ("malformed", malformed),
                              ("injected", injected), ("crowded", crowded), ("bulky", bulky)):
            with self.subTest(name), self.assertRaises(grpc.RpcError) as refused:
                stub.Shutdown(request, timeout=CALL_S)
            self.assertEqual(refused.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, name)
            self.assertIn(expected[name], refused.exception.details(), name)
        channel = warden.channel()
        self.addCleanup(channel.close)
        wrapper = pb["wrapper_grpc"].ProcessWrapperStub(channel)
        request = pb["wrapper"].InitGracefulShutdownRequest()
        request.shutdownCallback.url = "ftp://example.com/done"
        with self.assertRaises(grpc.RpcError) as refused:
            wrapper.InitGracefulShutdown(request, timeout=CALL_S)
        self.assertEqual(refused.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        after = stub.Status(v1.StatusRequest(), timeout=CALL_S)
        self.assertEqual(after.state, v1.STATE_RUNNING)
        self.assertFalse(after.HasField("drain_started_at"))
        self.assertEqual(after.state_since, before.state_since)
        self.assertFalse([line for line in warden.report() if line.startswith("signal")])


class CtlTest(ControlApiTest):
    def test_ctl_status_json_and_text(self):
        warden = self.start()
        self.wait_state(self.warden_stub(warden), pb["warden"].STATE_RUNNING)
        answer = self.ctl(warden, "status", "--json")
        self.assertEqual(answer.returncode, 0, answer.stderr)
        status = json.loads(answer.stdout)
        self.assertEqual(status["state"], "running")
        self.assertIsInstance(status["runner_pid"], int)
        self.assertIsNone(status["jobs_running"])
        self.assertIsNone(status["exit_code"])
        text = self.ctl(warden, "status")
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertIn("runwarden: running", text.stdout)
        self.assertIn("jobs:      unknown", text.stdout)

    def test_ctl_shutdown_wait_drains_end_to_end(self):
        """The Kubernetes preStop use: block until gone, exit with the runner's code."""
        warden = self.start()
        warden.wait_report("job_started 2")
        watcher = subprocess.Popen([RUNWARDEN, "ctl", "--addr", warden.listen, "status",
                                    "--watch", "--json"], stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: watcher.poll() is None and watcher.kill())
        # The watcher has subscribed once it printed the current status.
        self.assertTrue(select.select([watcher.stdout], [], [], WAIT_S)[0])
        first = watcher.stdout.readline()
        started = time.monotonic()
        done = self.ctl(warden, "shutdown", "--wait", "--reason", "preStop")
        took = time.monotonic() - started
        watched, _ = watcher.communicate(timeout=WAIT_S)
        self.assertEqual(watcher.returncode, 0)
        states = [json.loads(line)["state"] for line in (first + watched).splitlines()]
        self.assertEqual(states[0], "running")
        self.assertEqual(states[-2:], ["shutting_down", "gone"])
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        lines = done.stdout.splitlines()
        self.assertRegex(lines[0], "shutting_down/(waiting_for_runner|draining)")
        self.assertIn(" gone ", lines[-1])
        self.assertIn("exit code 0", lines[-1])
        self.assertEqual(warden.wait_exit(), 0)
        report = warden.report()
        quit_at = report.index("signal SIGQUIT")
        self.assertTrue(any(line.startswith("job_finished") for line in report[quit_at:]))
        self.assertEqual(report[-1], "exit 0")
        self.assertGreater(took, 0.2, "the jobs cannot have finished so soon")

    def test_ctl_force_wait_exits_with_the_runner_code(self):
        warden = self.start()
        warden.wait_report("job_started 1")
        done = self.ctl(warden, "shutdown", "--force", "--wait", "--json")
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        last = json.loads(done.stdout.splitlines()[-1])
        self.assertEqual(last["state"], "gone")
        self.assertEqual(last["exit_code"], 1)
        self.assertEqual(warden.wait_exit(), 1)

    def test_ctl_errors(self):
        warden = self.start()
        bad = self.ctl(warden, "shutdown", "--deadline", "soon")
        self.assertEqual(bad.returncode, 64, bad.stderr)
        refused = self.ctl(warden, "shutdown", "--webhook", "ftp://example.com/x")
        self.assertEqual(refused.returncode, 65, refused.stderr)
        self.assertIn("http:// or https://", refused.stderr)
        directory = os.path.dirname(warden.socket_path)
        if os.geteuid() == 0:
            denied = self.ctl(warden, "status", preexec=lambda: os.setuid(65534))
        else:
            os.chmod(directory, 0)
            try:
                denied = self.ctl(warden, "status")
            finally:
                os.chmod(directory, 0o700)
        self.assertEqual(denied.returncode, 77, denied.stderr)
        self.assertIn("permission denied on " + warden.listen, denied.stderr)
        missing = subprocess.run([RUNWARDEN, "ctl", "--socket", warden.socket_path + ".none",
                                  "status"], capture_output=True, text=True, timeout=WAIT_S)
        self.assertEqual(missing.returncode, 69)
        self.assertIn("no runwarden listening at unix://%s.none: no such file"
                      % warden.socket_path, missing.stderr)

    @unittest.skipUnless(os.geteuid() == 0, "plants directories owned by other uids")
    def test_ctl_checks_the_default_socket_directory(self):
        """A non-root ctl's default socket is $XDG_RUNTIME_DIR/runwarden/control.sock (or
        /tmp/runwarden-UID/...), a directory someone else may have made first: ctl (run as
        uid 65534) must refuse it, naming the problem, before it connects or sends a token.
        The directories are planted in a fresh temporary XDG_RUNTIME_DIR."""
        runtime = tempfile.mkdtemp(prefix="runwarden-py-runtime-")
        self.addCleanup(shutil.rmtree, runtime, True)
        os.chmod(runtime, 0o755)
        planted = os.path.join(runtime, "runwarden")
        os.mkdir(planted)
        environment = dict(os.environ, XDG_RUNTIME_DIR=runtime)

        def ctl_as_nobody():
            return subprocess.run([RUNWARDEN, "ctl", "status"], capture_output=True, text=True,
                                  timeout=WAIT_S, env=environment,
                                  preexec_fn=lambda: os.setuid(65534))
        for owner, mode, problem in ((0, 0o777, "its mode 0777 lets group or others write"),
                                     (65534, 0o770, "its mode 0770 lets group or others write"),
                                     (65533, 0o700, "belongs to uid 65533, not to you (uid "
                                                    "65534) or root")):
            os.chown(planted, owner, owner)
            os.chmod(planted, mode)
            refused = ctl_as_nobody()
            self.assertEqual(refused.returncode, 69, refused.stderr)
            self.assertIn("refusing to send the token to a socket in " + planted, refused.stderr)
            self.assertIn(problem, refused.stderr)
        os.chown(planted, 65534, 65534)
        os.chmod(planted, 0o700)
        nobody_there = ctl_as_nobody()
        self.assertEqual(nobody_there.returncode, 69, nobody_there.stderr)
        self.assertIn("no runwarden listening", nobody_there.stderr)
        self.assertNotIn("refusing", nobody_there.stderr)


def run_tests():
    """Runs the tests of the __main__ module (this one, or a module that imports it) and
    exits with their verdict, after a one-line summary CTest's log shows."""
    started = time.monotonic()
    result = unittest.main(verbosity=2, exit=False).result
    verdict = "PASS" if result.wasSuccessful() else "FAIL"
    print("%s: %d tests in %.1fs" % (verdict, result.testsRun, time.monotonic() - started))
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    run_tests()

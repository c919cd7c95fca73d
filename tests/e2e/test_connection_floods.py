#!/usr/bin/python3
"""Floods of connections that authenticate nothing, on loopback (issue 31).

A local user who holds more idle TCP connections than runwarden has slots (the control
API's connections_max, 256, in src/control/grpc_on_demand.cpp; the HTTP endpoints' 64 in
src/control/http_limits.hpp) must not lock out the operator's token-bearing calls or the
health probes. Each test opens FLOOD_EXTRA connections more than the limit, sends nothing
on them (or half a request), and keeps them open while it checks that:
- a Status call carrying the token, and /healthz, are answered within ANSWER_S;
- every flooding connection is closed by runwarden within its deadline plus a margin
  (CLOSE_S), since a connection that proves nothing must not hold a slot for good;
- a gRPC connection whose call carried a wrong token is closed too, and one whose call
  carried the right token is kept past that deadline.

Before the fix the slots were held for as long as the flood stayed open (gRPC) or for the
10 s read timeout (HTTP), and both checks failed. The bounds are a few times what the
work takes on an idle machine, and far below the old waits, so a loaded 2-core machine
makes the test slower, not red.
  RUNWARDEN_BINARY=build/runwarden RUNWARDEN_PROTO_DIR=messages \\
  /usr/bin/python3 tests/e2e/test_connection_floods.py
"""

import http.client
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import grpc

from drain_world import RUNWARDEN, free_port

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import test_control_api as control_api  # noqa: E402  (its stub generation, not its tests)

GRPC_CONNECTIONS_MAX = 256  # src/control/grpc_on_demand.cpp
HTTP_CONNECTIONS_MAX = 64  # src/control/http_limits.hpp
FLOOD_EXTRA = 4  # the floods: 260 and 70 (here 68) connections
ANSWER_S = 5.0  # a call or probe under the flood; the old waits were unbounded and 10 s
CLOSE_S = 20.0  # runwarden's deadlines (a few seconds) plus a wide margin
START_S = 30
TOKEN = "flood-test-token-5c1e"


def log_of(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return ""


class Flood:
    """Idle client connections to one port, held until closed."""

    def __init__(self, port, count, first_bytes=b""):
        self.sockets = []
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port), timeout=ANSWER_S)
            if first_bytes:
                s.sendall(first_bytes)
            self.sockets.append(s)

    def wait_all_closed(self, timeout):
        """How many are still open after `timeout` (0 when runwarden closed them all)."""
        deadline = time.monotonic() + timeout
        open_ones = list(self.sockets)
        while open_ones and time.monotonic() < deadline:
            still = []
            for s in open_ones:
                s.settimeout(max(0.01, min(0.2, deadline - time.monotonic())))
                try:
                    while True:
                        data = s.recv(65536)  # gRPC's SETTINGS and GOAWAY, then the end
                        if not data:
                            break
                except socket.timeout:
                    still.append(s)
                except OSError:  # reset: closed too
                    pass
            open_ones = still
        return len(open_ones)

    def close(self):
        for s in self.sockets:
            s.close()


class RunwardenOnLoopback(unittest.TestCase):
    """runwarden supervising `sleep`, its control API and HTTP port on loopback TCP."""

    def start_runwarden(self, *flags):
        self.dir = tempfile.mkdtemp(prefix="runwarden-flood-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        token_path = os.path.join(self.dir, "token")
        with open(token_path, "w") as f:
            f.write(TOKEN + "\n")
        os.chmod(token_path, 0o600)
        self.grpc_port, self.http_port = free_port(), free_port()
        self.log_path = os.path.join(self.dir, "runwarden.log")
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [RUNWARDEN, "run", "--kind", "generic", "--grpc-listen",
                 "tcp://127.0.0.1:%d" % self.grpc_port, "--token-file", token_path,
                 "--http-listen", "127.0.0.1:%d" % self.http_port,
                 "--state-dir", os.path.join(self.dir, "state"), *flags,
                 "--", "/bin/sleep", "600"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.addCleanup(self.stop)
        deadline = time.monotonic() + START_S
        while "HTTP listening on" not in log_of(self.log_path) or \
                "control API listening" not in log_of(self.log_path):
            self.assertIsNone(self.proc.poll(), log_of(self.log_path))
            self.assertLess(time.monotonic(), deadline, log_of(self.log_path))
            time.sleep(0.05)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=START_S)

    def status_with_token(self):
        channel = grpc.insecure_channel("127.0.0.1:%d" % self.grpc_port)
        try:
            stub = control_api.pb["warden_grpc"].WardenStub(channel)
            return stub.Status(control_api.pb["warden"].StatusRequest(), timeout=ANSWER_S,
                               metadata=[("authorization", "Bearer " + TOKEN)])
        finally:
            channel.close()

    def healthz(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=ANSWER_S)
        try:
            connection.request("GET", "/healthz")
            return connection.getresponse().status
        finally:
            connection.close()


class ConnectionFloodTest(RunwardenOnLoopback):
    def setUp(self):
        self.start_runwarden()

    def test_idle_grpc_connections_leave_room_for_a_token(self):
        flood = Flood(self.grpc_port, GRPC_CONNECTIONS_MAX + FLOOD_EXTRA)
        self.addCleanup(flood.close)
        started = time.monotonic()
        answer = self.status_with_token()
        self.assertLess(time.monotonic() - started, ANSWER_S)
        self.assertNotEqual(0, answer.state)
        self.assertEqual(0, flood.wait_all_closed(CLOSE_S),
                         "idle unauthenticated gRPC connections were left open")
        self.status_with_token()  # and still after the flood was cut off

    def connectivity_after(self, metadata, seconds, until_closed=False):
        """The states a channel went through in `seconds` (or until it left READY) after one
        Status call with `metadata`: READY stays READY while runwarden keeps the
        connection."""
        channel = grpc.insecure_channel("127.0.0.1:%d" % self.grpc_port)
        states = []
        try:
            stub = control_api.pb["warden_grpc"].WardenStub(channel)
            try:
                stub.Status(control_api.pb["warden"].StatusRequest(), timeout=ANSWER_S,
                            metadata=metadata)
            except grpc.RpcError as error:
                self.assertEqual(grpc.StatusCode.UNAUTHENTICATED, error.code())
            channel.subscribe(states.append, try_to_connect=False)
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                if until_closed and states and states[-1] != grpc.ChannelConnectivity.READY:
                    break
                time.sleep(0.05)
            return states
        finally:
            channel.close()

    def test_a_connection_is_kept_once_a_call_carried_the_token(self):
        # Past the 5 s given to an unproven connection, the proven one is still there.
        states = self.connectivity_after([("authorization", "Bearer " + TOKEN)], 8)
        self.assertEqual([grpc.ChannelConnectivity.READY], states)

    def test_a_connection_with_a_wrong_token_is_closed(self):
        states = self.connectivity_after([("authorization", "Bearer wrong")], CLOSE_S,
                                         until_closed=True)
        self.assertEqual(grpc.ChannelConnectivity.READY, states[0])
        self.assertNotEqual(grpc.ChannelConnectivity.READY, states[-1], states)

    def test_idle_http_connections_leave_room_for_healthz(self):
        flood = Flood(self.http_port, HTTP_CONNECTIONS_MAX + FLOOD_EXTRA)
        self.addCleanup(flood.close)
        started = time.monotonic()
        self.assertEqual(200, self.healthz())
        self.assertLess(time.monotonic() - started, ANSWER_S)
        self.assertEqual(0, flood.wait_all_closed(CLOSE_S),
                         "idle HTTP connections were left open")

    def test_half_requests_over_http_are_cut_off(self):
        # Half a request line and nothing more: the slow-loris shape.
        flood = Flood(self.http_port, HTTP_CONNECTIONS_MAX + FLOOD_EXTRA, b"GET /heal")
        self.addCleanup(flood.close)
        self.assertEqual(200, self.healthz())
        self.assertEqual(0, flood.wait_all_closed(CLOSE_S),
                         "half-sent HTTP requests were left open")


@unittest.skipUnless(shutil.which("openssl"), "needs the openssl command")
class TlsHandshakeTest(RunwardenOnLoopback):
    """With TLS, gRPC's own listener accepts (src/control/grpc_host.cpp): a connection that
    never starts its handshake is closed at the handshake timeout."""

    def setUp(self):
        directory = tempfile.mkdtemp(prefix="runwarden-flood-tls-")
        self.addCleanup(shutil.rmtree, directory, True)
        cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                        "1", "-subj", "/CN=127.0.0.1", "-addext",
                        "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True, timeout=START_S)
        config = os.path.join(directory, "runwarden.toml")
        with open(config, "w") as f:
            f.write('[control]\ntls_cert_file = "%s"\ntls_key_file = "%s"\n' % (cert, key))
        self.start_runwarden("--config", config)

    def test_idle_tls_connections_are_closed(self):
        flood = Flood(self.grpc_port, 16)
        self.addCleanup(flood.close)
        self.assertEqual(0, flood.wait_all_closed(CLOSE_S),
                         "connections that never began a TLS handshake were left open")


if __name__ == "__main__":
    if not RUNWARDEN or not control_api.PROTO_DIR:
        sys.exit("set RUNWARDEN_BINARY and RUNWARDEN_PROTO_DIR")
    stub_dir = tempfile.mkdtemp(prefix="runwarden-flood-stubs-")
    try:
        control_api.generate_stubs(stub_dir)
        outcome = unittest.main(verbosity=2, exit=False).result
    finally:
        shutil.rmtree(stub_dir, ignore_errors=True)
    sys.exit(0 if outcome.wasSuccessful() else 1)

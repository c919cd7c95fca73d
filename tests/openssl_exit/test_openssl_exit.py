#!/usr/bin/python3
"""runwarden keeps OpenSSL's global state until the process ends, for every command that
uses TLS: OpenSSL's own exit handler would free it while gRPC's detached EventEngine threads
may still be ending (grpc/grpc#38539: a leaked per-thread error state, or a double free).

The probe (openssl_exit_probe.cpp, preloaded) registers an exit handler before runwarden
starts, which runs after any handler OpenSSL registers, and says whether OpenSSL's state was
still there. Both ends of a TLS control connection are tried: `runwarden ctl --tls-ca`, and
`runwarden run` serving its control API over TLS until SIGTERM drains it.
  RUNWARDEN_BINARY=build/runwarden DEMO_RUNNER_BINARY=build/runwarden-demo-runner \\
  OPENSSL_EXIT_PROBE=build/tests/libopenssl_exit_probe.so \\
  /usr/bin/python3 tests/openssl_exit/test_openssl_exit.py
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

RUNWARDEN = os.environ.get("RUNWARDEN_BINARY", "")
DEMO_RUNNER = os.environ.get("DEMO_RUNNER_BINARY", "")
PROBE = os.environ.get("OPENSSL_EXIT_PROBE", "")
WAIT_S = 120
KEPT = "openssl-exit-probe: OpenSSL's state was kept until the process ended"
CLEANED = "openssl-exit-probe: OpenSSL's state was cleaned up by its exit handler"


def probed_environment():
    environment = dict(os.environ, LD_PRELOAD=PROBE)
    # Under AddressSanitizer a preloaded library comes before the sanitizer's runtime.
    asan = environment.get("ASAN_OPTIONS", "")
    environment["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "verify_asan_link_order=0"
    return environment


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


class OpensslExitTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="runwarden-openssl-exit-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.cert = os.path.join(self.dir, "cert.pem")
        self.key = os.path.join(self.dir, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                        "1", "-subj", "/CN=127.0.0.1", "-addext",
                        "subjectAltName=IP:127.0.0.1", "-keyout", self.key, "-out",
                        self.cert], check=True, capture_output=True, timeout=WAIT_S)

    def assert_kept(self, stderr):
        self.assertNotIn(CLEANED, stderr)
        self.assertIn(KEPT, stderr)

    def assert_ctl_never_cleaned(self, stderr):
        """`ctl` ends with _Exit once its answer is out, so no exit handler runs, OpenSSL's
        neither (under AddressSanitizer it exits in order, and then the state is kept)."""
        self.assertNotIn(CLEANED, stderr)

    def ctl(self, address, *args):
        return subprocess.run([RUNWARDEN, "ctl", "--addr", address, "--tls-ca", self.cert,
                               *args], env=probed_environment(), capture_output=True,
                              text=True, timeout=WAIT_S)

    def test_ctl_over_tls(self):
        # Bound but not listening: the port refuses connections and stays this test's.
        with socket.socket() as refusing:
            refusing.bind(("127.0.0.1", 0))
            answer = self.ctl("tcp://127.0.0.1:%d" % refusing.getsockname()[1], "status")
        self.assertEqual(answer.returncode, 69, answer.stderr)
        self.assert_ctl_never_cleaned(answer.stderr)

    def test_run_serving_tls_until_drained(self):
        config = os.path.join(self.dir, "runwarden.toml")
        with open(config, "w") as f:
            f.write('[control]\ntls_cert_file = "%s"\ntls_key_file = "%s"\n'
                    % (self.cert, self.key))
        address = "tcp://127.0.0.1:%d" % free_port()
        log_path = os.path.join(self.dir, "warden.log")
        with open(log_path, "wb") as log:
            warden = subprocess.Popen(
                [RUNWARDEN, "run", "--kind", "gitlab", "--grpc-listen", address,
                 "--http-listen", "none", "--state-dir", os.path.join(self.dir, "state"),
                 "--config", config, "--", DEMO_RUNNER, "--report",
                 os.path.join(self.dir, "report"), "--job-seconds", "0.5"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=probed_environment(), start_new_session=True)
        self.addCleanup(lambda: warden.poll() is None and warden.kill())
        deadline = time.monotonic() + WAIT_S
        while "control API listening" not in read(log_path) and warden.poll() is None:
            self.assertLess(time.monotonic(), deadline, read(log_path))
            time.sleep(0.05)
        answer = self.ctl(address, "status")
        self.assertEqual(answer.returncode, 0, answer.stderr + read(log_path))
        self.assert_ctl_never_cleaned(answer.stderr)
        warden.send_signal(signal.SIGTERM)
        self.assertEqual(warden.wait(timeout=WAIT_S), 0, read(log_path))
        self.assert_kept(read(log_path))


if __name__ == "__main__":
    for name, value in (("RUNWARDEN_BINARY", RUNWARDEN), ("DEMO_RUNNER_BINARY", DEMO_RUNNER),
                        ("OPENSSL_EXIT_PROBE", PROBE)):
        if not value:
            sys.exit("set %s" % name)
    if not shutil.which("openssl"):
        sys.exit("the openssl command is needed (Debian package openssl)")
    unittest.main(verbosity=2)

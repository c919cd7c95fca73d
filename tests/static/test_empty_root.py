#!/usr/bin/python3
"""The static binary needs nothing from the distribution (issue 35): it runs in an empty root
holding only itself, its keeper program (runwarden-keeper, which `runwarden run` execs from
beside itself), the (static) demo runner and /dev, with no /etc, /proc, /usr, libc or
loader. Each command runs there through `unshare --mount` (plus `-r`, a user namespace, when
not root) with /dev bind-mounted and `chroot`, so the host's files are out of reach:
`runwarden version`, `runwarden ctl status`, and one whole drain of the demo runner (SIGTERM:
the runner is sent SIGQUIT, finishes its jobs, and runwarden exits 0 once it is gone).
The three binaries are first checked to have no program interpreter and no needed shared
object; during the drain, the runner's parent must be the keeper program.

  RUNWARDEN_BINARY=build-static/runwarden KEEPER_BINARY=build-static/runwarden-keeper \\
  DEMO_RUNNER_BINARY=build-static/runwarden-demo-runner \\
    /usr/bin/python3 tests/static/test_empty_root.py
Exits 77 (skipped) where namespaces cannot be made (a container without the privilege)."""

import json
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
KEEPER = os.environ.get("KEEPER_BINARY", "")
DEMO_RUNNER = os.environ.get("DEMO_RUNNER_BINARY", "")
WAIT_S = 30
SKIPPED = 77


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def running_program(pid):
    """The program a process runs: its /proc/PID/exe, or under qemu-user's binfmt_misc (the
    arm64 build's tests) the target binary that the kernel handed qemu as its first argument."""
    program = os.path.basename(os.readlink("/proc/%d/exe" % pid))
    if program.startswith("qemu-"):
        with open("/proc/%d/cmdline" % pid, "rb") as cmdline:
            program = os.path.basename(cmdline.read().split(b"\0")[1].decode())
    return program


def in_root(root, *command):
    """The argv that runs `command` (paths inside the root) chrooted into `root`, in a mount
    namespace of its own where the host's /dev is bound onto root/dev. unshare and sh exec,
    so the pid returned by Popen ends as the command's own."""
    unshare = ["unshare", "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        unshare.insert(1, "--map-root-user")
    script = 'mount --rbind /dev "$0/dev" && exec chroot "$0" "$@"'
    return unshare + ["--", "/bin/sh", "-c", script, root] + list(command)


def namespaces_work():
    probe = tempfile.mkdtemp(prefix="runwarden-ns-probe-")
    try:
        os.mkdir(os.path.join(probe, "dev"))
        done = subprocess.run(in_root(probe, "/nothing"), capture_output=True, text=True)
        # chroot itself ran (and found no /nothing): the namespaces and the mount worked.
        return done.returncode == 127 and "chroot" in done.stderr
    finally:
        shutil.rmtree(probe)


class EmptyRootTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="runwarden-empty-root-")
        os.mkdir(os.path.join(self.root, "dev"))
        shutil.copy(RUNWARDEN, os.path.join(self.root, "runwarden"))
        shutil.copy(KEEPER, os.path.join(self.root, "runwarden-keeper"))
        shutil.copy(DEMO_RUNNER, os.path.join(self.root, "runwarden-demo-runner"))
        self.outside = tempfile.mkdtemp(prefix="runwarden-empty-root-log-")

    def tearDown(self):
        shutil.rmtree(self.root)
        shutil.rmtree(self.outside)

    def run_in_root(self, *command):
        return subprocess.run(in_root(self.root, *command), capture_output=True, text=True,
                              timeout=WAIT_S)

    def status(self):
        done = self.run_in_root("/runwarden", "ctl", "--socket", "/control.sock", "status",
                                "--json")
        return json.loads(done.stdout) if done.returncode == 0 and done.stdout else None

    def test_both_binaries_need_no_loader_and_no_shared_object(self):
        for binary in (RUNWARDEN, KEEPER, DEMO_RUNNER):
            headers = subprocess.run(["readelf", "--program-headers", "--dynamic", binary],
                                     capture_output=True, text=True, check=True).stdout
            self.assertNotIn("INTERP", headers, binary)
            self.assertNotIn("(NEEDED)", headers, binary)

    def test_version_runs_in_the_empty_root(self):
        done = self.run_in_root("/runwarden", "version")
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertIn("runwarden", done.stdout)

    def test_a_whole_drain_and_ctl_status_in_the_empty_root(self):
        port = free_port()
        log_path = os.path.join(self.outside, "runwarden.log")
        with open(log_path, "w") as log:
            warden = subprocess.Popen(in_root(
                self.root, "/runwarden", "run", "--kind", "gitlab",
                "--metrics-url", "http://127.0.0.1:%d/metrics" % port,
                "--grpc-listen", "unix:///control.sock", "--http-listen", "none",
                "--state-dir", "/state", "--",
                "/runwarden-demo-runner", "--listen-address", "127.0.0.1:%d" % port,
                "--concurrency", "2", "--job-interval", "0.2", "--job-seconds", "2"),
                stdout=log, stderr=subprocess.STDOUT)
        try:
            running = None
            deadline = time.monotonic() + WAIT_S
            while time.monotonic() < deadline and warden.poll() is None:
                status = self.status()
                if status and status["state"] == "running" and status.get("jobs_running"):
                    running = status
                    break
                time.sleep(0.2)
            self.assertIsNotNone(running, "no running job seen by `ctl status`:\n" +
                                 open(log_path).read())
            # unshare, sh and chroot exec: the pid is the keeper's, which exec'd its program.
            self.assertEqual("runwarden-keeper", running_program(warden.pid))
            warden.send_signal(signal.SIGTERM)
            self.assertEqual(0, warden.wait(timeout=WAIT_S), open(log_path).read())
        finally:
            if warden.poll() is None:
                warden.kill()
                warden.wait()
        log = open(log_path).read()
        for line in ("drain requested by SIGTERM",
                     "asking the runner to finish its jobs (SIGQUIT)",
                     "demo-runner: drained, all jobs finished",
                     "runner stopped (exit code 0)",
                     "status shutting_down -> gone",
                     # No sd-bus in this build: it says once that it takes no logind lock.
                     "this static build has no sd-bus and holds no shutdown inhibitor lock"):
            self.assertIn(line, log)
        self.assertTrue(os.path.exists(os.path.join(self.root, "state")), log)


if __name__ == "__main__":
    if not RUNWARDEN or not KEEPER or not DEMO_RUNNER:
        sys.exit("set RUNWARDEN_BINARY, KEEPER_BINARY and DEMO_RUNNER_BINARY")
    if not namespaces_work():
        print("skipped: cannot make a mount namespace and chroot here")
        sys.exit(SKIPPED)
    unittest.main(verbosity=2)

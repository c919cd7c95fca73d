#!/usr/bin/python3
"""The runner outlives runwarden's big process (issue 30): every death of the warden, and
every way its output can be lost, leaves the runner and its job running.

`runwarden run` is the keeper: the runner's parent, which restarts the warden (its child,
everything else) whenever it dies. The runner here is go_like_runner.py, which writes to its
stdout and stderr and dies of SIGPIPE as gitlab-runner (a Go program) does. Each test names
the numbered case of issue 30 it covers:
  1, 7  kill -9 of the warden mid-drain: the runner finishes its job, the restarted warden
        knows its real exit status, runwarden exits 0 (not 75);
  2     runwarden's stderr reader dies: neither runwarden nor the runner dies of SIGPIPE;
  3     systemd's part played as systemd.kill(5) and src/core/service.c describe it (the
        stop sequence: SIGTERM to the main process, then SIGKILL to what is left of the
        unit once it exited; a restart only when the main process died), and a container
        where runwarden is PID 1;
  4     started with descriptors 0-2 closed: nothing of runwarden's output lands in the
        journal, and a restarted warden finds the drain it was in;
  5     a log reader that stalls: a SIGTERM is acted on while the reader reads nothing.
And where the keeper runs (issue 35): in runwarden-keeper, the program installed beside
runwarden, whose command line and PID are runwarden's; in runwarden itself where it was copied
on its own.
Every wait is for an observed change (a record line, a log line, a datagram), bounded only
against hangs, so a loaded machine makes the tests slower, not red.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_keeper.py
"""

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from log_reader import LogReader  # noqa: E402
from notify_listener import NotifyListener  # noqa: E402
from keeper_family import children, warden_of  # noqa: E402

RUNWARDEN = os.environ.get("RUNWARDEN_BINARY")
RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "go_like_runner.py")
WAIT_S = 90
PR_SET_CHILD_SUBREAPER = 36


def wait_until(condition, what, timeout=WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out waiting for " + what)


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


class Runner:
    """The record go_like_runner.py keeps, read by a test."""

    def __init__(self, work):
        self.record = os.path.join(work, "record")

    def command(self, job_seconds=1.0, burst=0):
        return ["/usr/bin/python3", RUNNER, self.record, str(job_seconds), str(burst)]

    def events(self):
        try:
            with open(self.record) as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def wait_for(self, event):
        wait_until(lambda: event in self.events(), "the runner's %r (has %r)" %
                   (event, self.events()))

    def pid(self):
        starts = [e for e in self.events() if e.startswith("start ")]
        return int(starts[0].split()[1]) if starts else None

    def wait_for_pid(self):
        return wait_until(self.pid, "the runner to start")


def runwarden_command(work, *options):
    return [RUNWARDEN, "run", "--state-dir", os.path.join(work, "state"),
            "--grpc-listen", "unix://" + os.path.join(work, "control.sock"),
            "--http-listen", "none", "--graceful-signal", "SIGQUIT", *options, "--"]


def wait_for_warden(keeper):
    return wait_until(lambda: warden_of(keeper), "the keeper's warden")


def kill_warden_and_wait_for_the_next(keeper, runner_pid):
    warden = wait_for_warden(keeper)
    assert warden != runner_pid
    os.kill(warden, signal.SIGKILL)
    return wait_until(lambda: next((p for p in [warden_of(keeper)] if p and p != warden), None),
                      "a new warden after %d was killed" % warden)


def read_until_closed(fd):
    while os.read(fd, 65536):
        pass
    os.close(fd)


class KeeperTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="runwarden-keeper-")
        self.runner = Runner(self.work)
        self.processes = []

    def tearDown(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        for pid in self._runners_left():
            os.kill(pid, signal.SIGKILL)
        subprocess.run(["rm", "-rf", self.work])

    def _runners_left(self):
        """This test's runners still alive (by their record's path in /proc/PID/cmdline)."""
        left = []
        for entry in os.listdir("/proc"):
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    if self.runner.record.encode() in f.read().split(b"\0") and alive(int(entry)):
                        left.append(int(entry))
            except (OSError, ValueError):
                pass
        return left

    def start(self, command, **options):
        process = subprocess.Popen(command, **options)
        self.processes.append(process)
        return process

    def assert_job_finished_cleanly(self):
        events = self.runner.events()
        self.assertEqual(1, sum(e.startswith("start ") for e in events), events)
        self.assertIn("job finished", events)
        self.assertEqual("exit 0", events[-1], events)
        self.assertNotIn("job aborted", events)

    # Cases 1 and 7.
    def test_warden_killed_mid_drain_leaves_the_job_and_knows_the_real_exit(self):
        keeper = self.start(runwarden_command(self.work) + self.runner.command(job_seconds=3),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log = LogReader(keeper.stdout)
        runner = self.runner.wait_for_pid()
        log.expect("job=1 still running")  # its output reaches runwarden's log
        keeper.send_signal(signal.SIGTERM)
        self.runner.wait_for("signal QUIT")
        kill_warden_and_wait_for_the_next(keeper.pid, runner)
        log.expect("still runs; watching it")
        self.assertEqual(0, keeper.wait(timeout=WAIT_S), log.text())
        self.assert_job_finished_cleanly()
        self.assertNotIn("exit status is unknown", log.text())
        self.assertIn("Graceful shutdown: waiting for job=1", log.text())

    # Case 1, outside a drain: the restarted warden adopts, starts no second runner.
    def test_warden_killed_while_running_adopts_the_runner(self):
        keeper = self.start(runwarden_command(self.work) + self.runner.command(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log = LogReader(keeper.stdout)
        runner = self.runner.wait_for_pid()
        log.expect("job=1 still running")
        kill_warden_and_wait_for_the_next(keeper.pid, runner)
        log.expect("still runs; watching it")
        log.expect("Feeding runners")
        keeper.send_signal(signal.SIGTERM)
        self.assertEqual(0, keeper.wait(timeout=WAIT_S), log.text())
        self.assert_job_finished_cleanly()

    # Case 2.
    def test_stderr_reader_gone_kills_nothing(self):
        reader_end, writer_end = os.pipe()
        keeper = self.start(runwarden_command(self.work) + self.runner.command(),
                            stdout=writer_end, stderr=writer_end)
        os.close(writer_end)
        self.runner.wait_for_pid()
        with os.fdopen(reader_end) as reader:  # a `| tee` that reads a little, then dies
            reader.readline()
        time.sleep(0.5)  # lines written meanwhile meet the closed pipe (EPIPE, no SIGPIPE)
        self.assertIsNone(keeper.poll(), "runwarden died with its log reader")
        self.assertNotIn("exit 0", self.runner.events())
        keeper.send_signal(signal.SIGTERM)
        self.assertEqual(0, keeper.wait(timeout=WAIT_S))
        self.assert_job_finished_cleanly()

    # Case 4.
    def test_closed_standard_descriptors_keep_the_journal_clean(self):
        command = runwarden_command(self.work) + self.runner.command(job_seconds=3)
        keeper = self.start(["/bin/sh", "-c", 'exec "$@" <&- >&- 2>&-', "sh", *command])
        runner = self.runner.wait_for_pid()
        warden = wait_for_warden(keeper.pid)
        for pid in (keeper.pid, warden):
            for fd in (0, 1, 2):
                self.assertEqual("/dev/null", os.readlink("/proc/%d/fd/%d" % (pid, fd)),
                                 "descriptor %d of %d" % (fd, pid))
        keeper.send_signal(signal.SIGTERM)
        self.runner.wait_for("signal QUIT")
        kill_warden_and_wait_for_the_next(keeper.pid, runner)
        state = os.path.join(self.work, "state")
        files = os.listdir(state)  # the journal is retired at the end: read it now
        self.assertTrue(files)
        for name in files:
            with open(os.path.join(state, name), "rb") as f:
                self.assertNotIn(b"level=", f.read(), "runwarden's log is in " + name)
        self.assertEqual(0, keeper.wait(timeout=WAIT_S))
        self.assert_job_finished_cleanly()

    # Case 5.
    def test_stalled_log_reader_does_not_delay_a_drain(self):
        reader_end, writer_end = os.pipe()  # nobody reads it until the drain has begun
        command = runwarden_command(self.work) + self.runner.command(burst=3000)
        keeper = self.start(command, stdout=writer_end, stderr=writer_end)
        os.close(writer_end)
        try:
            self.runner.wait_for_pid()
            # 300 KB of the runner's lines against a 64 KiB pipe: runwarden's log is stuck.
            wait_until(lambda: any(e == "job started" for e in self.runner.events()),
                       "the runner's burst to be written")
            keeper.send_signal(signal.SIGTERM)
            self.runner.wait_for("signal QUIT")
            socket_path = os.path.join(self.work, "control.sock")
            status = subprocess.run([RUNWARDEN, "ctl", "--socket", socket_path, "status"],
                                    capture_output=True, text=True, timeout=WAIT_S)
            self.assertEqual(0, status.returncode, status.stderr)
            self.assertIn("drain", status.stdout)
        finally:
            threading.Thread(target=read_until_closed, args=(reader_end,), daemon=True).start()
        self.assertEqual(0, keeper.wait(timeout=WAIT_S))
        self.assert_job_finished_cleanly()

    # Case 3: the service manager's part.
    def test_service_manager_stop_sequence_and_warden_crashes(self):
        libc = ctypes.CDLL(None, use_errno=True)
        # What systemd's cgroup holds, this test holds as the subreaper of its descendants.
        self.assertEqual(0, libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
        listener = NotifyListener(self.work, WAIT_S)
        try:
            command = runwarden_command(self.work) + self.runner.command(job_seconds=3)
            # systemd sets WATCHDOG_PID to the main process's pid after its fork.
            main = self.start(["/bin/sh", "-c", 'WATCHDOG_PID=$$ exec "$@"', "sh", *command],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=dict(os.environ, NOTIFY_SOCKET=listener.path,
                                       WATCHDOG_USEC="10000000"))
            log = LogReader(main.stdout)
            listener.wait_for_line("READY=1")
            runner = self.runner.wait_for_pid()
            # A crash of the warden: the main process lives on, so systemd does nothing.
            kill_warden_and_wait_for_the_next(main.pid, runner)
            log.expect("still runs; watching it")
            self.assertIsNone(main.poll())
            # `systemctl stop`: KillMode=mixed sends SIGTERM to the main process only.
            main.send_signal(signal.SIGTERM)
            self.runner.wait_for("signal QUIT")
            kill_warden_and_wait_for_the_next(main.pid, runner)  # a crash during the stop
            self.assertEqual(0, main.wait(timeout=WAIT_S), log.text())
            # Then SIGKILL to whatever is left of the unit: nothing may be.
            left = [p for p in children(os.getpid()) if alive(p)]
            self.assertEqual([], left, "processes left after the main process exited")
            self.assert_job_finished_cleanly()
            senders = {pid for pid, lines in listener.datagrams}
            self.assertEqual({main.pid}, senders, "NotifyAccess=main drops other senders")
            self.assertIn("WATCHDOG=1", listener.lines())
            self.assertTrue(listener.lines()[-1].startswith("STATUS=gone, exit code 0"),
                            listener.lines())
        finally:
            listener.close()
            libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)

    # Issue 35: the keeper is the program beside runwarden, with runwarden's command line.
    def test_keeper_is_its_own_program_beside_runwarden(self):
        self._keeper_runs_in(RUNWARDEN, "runwarden-keeper")

    # Issue 35: runwarden copied on its own (a single static binary) is its own keeper.
    def test_runwarden_alone_is_its_own_keeper(self):
        alone = os.path.join(self.work, "alone", "runwarden")
        os.mkdir(os.path.dirname(alone))
        try:  # a hard link where it can be: the dynamic build's binary is large
            os.link(os.path.realpath(RUNWARDEN), alone)
        except OSError:
            shutil.copy(RUNWARDEN, alone)
        self._keeper_runs_in(alone, "runwarden")

    def _keeper_runs_in(self, binary, keeper_binary_name):
        command = runwarden_command(self.work) + self.runner.command()
        command[0] = binary
        keeper = self.start(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log = LogReader(keeper.stdout)
        runner = self.runner.wait_for_pid()
        log.expect("job=1 still running")
        self.assertEqual(keeper_binary_name,
                         os.path.basename(os.readlink("/proc/%d/exe" % keeper.pid)))
        warden = wait_for_warden(keeper.pid)
        self.assertEqual(os.path.realpath(binary), os.readlink("/proc/%d/exe" % warden))
        with open("/proc/%d/environ" % warden, "rb") as f:  # the keeper's own variable is gone
            self.assertNotIn(b"RUNWARDEN_WARDEN_BINARY", f.read())
        kill_warden_and_wait_for_the_next(keeper.pid, runner)
        log.expect("still runs; watching it")
        keeper.send_signal(signal.SIGTERM)
        self.assertEqual(0, keeper.wait(timeout=WAIT_S), log.text())
        self.assert_job_finished_cleanly()

    # Case 3: a container whose PID 1 is runwarden.
    def test_container_outlives_the_warden(self):
        probe = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"],
                               capture_output=True)
        if probe.returncode != 0:
            self.skipTest("no PID namespace here: " + probe.stderr.decode())
        command = runwarden_command(self.work) + self.runner.command(job_seconds=3)
        # --mount-proc: the container's own /proc, as a container runtime gives it (the
        # sanitizers' leak check reads /proc/PID/task of its own pid at exit).
        container = self.start(["unshare", "--pid", "--fork", "--kill-child", "--mount-proc",
                                *command],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log = LogReader(container.stdout)
        runner_in_namespace = self.runner.wait_for_pid()
        init = wait_until(lambda: next(iter(children(container.pid)), None), "PID 1")
        runner = wait_until(lambda: next((p for p in children(init)
                                          if alive(p) and self._namespace_pid(p) ==
                                          runner_in_namespace), None), "the runner")
        kill_warden_and_wait_for_the_next(init, runner)
        log.expect("still runs; watching it")
        self.assertIsNone(container.poll(), "the container ended with the warden")
        os.kill(init, signal.SIGTERM)
        self.assertEqual(0, container.wait(timeout=WAIT_S), log.text())
        self.assert_job_finished_cleanly()

    @staticmethod
    def _namespace_pid(pid):
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("NSpid:"):
                    return int(line.split()[-1])
        return None


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

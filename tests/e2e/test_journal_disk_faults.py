#!/usr/bin/python3
"""The journal's disk fails mid-drain: it fills up, or its file system turns read-only.

runwarden drains fake_gitlab_runner.py, whose one job is held (FAKE_RUNNER_RELEASE_FILE)
for as long as the test needs, with its state directory on a file system the test mounts:

- Full: a 256 KiB tmpfs, filled by the test after the journal began, then a drain asked
  for through the control API with long reasons (entries that cannot fit). The drain goes
  on from memory; the log says so once, naming the journal and the errno; /metrics shows
  runwarden_journal_healthy 0 with the failures and the entries held. Once the test frees
  the space the held entries are written (the log says so, /metrics shows healthy 1), the
  job finishes, and the retired journal replays with `runwarden replay --check`: whole and
  gapless.
- Read-only: an ext4 image on a loop device mounted errors=remount-ro, turned read-only by
  ext4's own trigger_fs_error (what a failing disk does to it; Linux refuses to remount a
  file system read-only while runwarden holds its journal open for writing). The drain
  goes on from memory to gone, the job finishes, runwarden exits with the runner's 0.

Either way no job is killed: the runner's record ends in "exit 0". Mounting needs root (CI
runs as root); where the machine cannot mount, each test is skipped saying why. Waits
observe the Watch stream, the log and the runner's record, never a fixed time.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_journal_disk_faults.py
"""

import errno
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest
import urllib.request

from drain_world import RUNWARDEN, WAIT_S, DrainWorld, free_port

TMPFS_BYTES = 256 * 1024
# runwarden tries a refused write again after a backoff of at most 30 s (run_journal.cpp).
RETRY_S = 30


def mount(*arguments):
    done = subprocess.run(["mount", *arguments], capture_output=True, text=True)
    return None if done.returncode == 0 else (done.stderr.strip() or "mount failed")


class JournalDiskFaultTest(unittest.TestCase):
    def setUp(self):
        self.world = DrainWorld([], jobs=1, job_seconds=0.2)
        self.state = os.path.join(self.world.dir, "state")
        os.mkdir(self.state, 0o700)
        self.release = os.path.join(self.world.dir, "release")
        self.mounted = False
        self.port = free_port()

    def tearDown(self):
        self.world.close()
        if self.mounted:
            subprocess.run(["umount", "--lazy", self.state], check=False)

    def mount_or_skip(self, *arguments):
        if os.geteuid() != 0:
            self.skipTest("mounting a file system for the journal needs root")
        why = mount(*arguments, self.state)
        if why:
            self.skipTest("this machine cannot mount the journal's file system: " + why)
        self.mounted = True

    def start_draining(self):
        env = dict(os.environ, FAKE_RUNNER_RELEASE_FILE=self.release)
        self.warden = self.world.start_warden(env=env, http_listen="127.0.0.1:%d" % self.port)
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1),
                             "the runner's job never showed in status")

    def drain(self):
        self.warden.send_signal(signal.SIGTERM)
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("state") == "shutting_down"))

    def wait_for_log(self, pattern, timeout=WAIT_S):
        """The log grows only; it is read until it holds `pattern` or the warden ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.world.log())
            if found or self.warden.poll() is not None:
                return found
            time.sleep(0.05)
        return re.search(pattern, self.world.log())

    def journal_metrics(self):
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % self.port, timeout=10) as r:
            text = r.read().decode()
        return {name: float(value) for name, value in
                re.findall(r"^(runwarden_journal_\w+) (\S+)$", text, re.MULTILINE)}

    def finish(self):
        """Lets the job end; the drain must reach gone with the runner's clean exit."""
        open(self.release, "w").close()
        self.assertEqual(0, self.warden.wait(timeout=WAIT_S), self.world.log())
        self.assertEqual(["exit 0"], self.world.runner_record()[1:], "a job was killed")

    def fill(self):
        filler = os.path.join(self.state, "filler")
        descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(descriptor, b"\0" * 4096)
        except OSError as error:
            self.assertEqual(errno.ENOSPC, error.errno)
        finally:
            os.close(descriptor)
        return filler

    def test_a_full_disk_holds_the_entries_until_it_has_room_again(self):
        self.mount_or_skip("-t", "tmpfs", "-o", "size=%d,mode=0700" % TMPFS_BYTES, "tmpfs")
        self.start_draining()
        filler = self.fill()
        # A full tmpfs still takes what fits in the journal's last page (4 KiB at most): the
        # drain is asked for by eight Shutdown calls, one journal entry of over 1 KiB each
        # (the later ones change nothing: a second trigger never restarts a drain).
        for _ in range(8):
            subprocess.run([RUNWARDEN, "ctl", "--socket", self.world.socket, "shutdown",
                            "--reason", "disk full " + "x" * 1000], check=True,
                           capture_output=True, timeout=WAIT_S)
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("state") == "shutting_down"))
        refused = self.wait_for_log(r"journal: cannot append to (\S+): No space left on device; "
                                    r"the drain goes on")
        self.assertIsNotNone(refused, self.world.log())
        self.assertEqual(os.path.join(self.state, "journal"), refused.group(1))
        held = self.journal_metrics()
        self.assertEqual(0, held["runwarden_journal_healthy"], held)
        self.assertGreaterEqual(held["runwarden_journal_write_failures_total"], 1)
        self.assertGreaterEqual(held["runwarden_journal_unrecorded_entries"], 1)
        self.assertEqual([], self.world.runner_record()[1:], "the runner ended early")

        os.unlink(filler)
        self.assertIsNotNone(self.wait_for_log(r"held entries caught up", WAIT_S + RETRY_S),
                             self.world.log())
        caught_up = self.journal_metrics()
        self.assertEqual(1, caught_up["runwarden_journal_healthy"], caught_up)
        self.assertEqual(0, caught_up["runwarden_journal_unrecorded_entries"], caught_up)
        self.finish()

        log = self.world.log()
        self.assertEqual(1, log.count("No space left on device"), log)
        replay = subprocess.run([RUNWARDEN, "replay", "--check",
                                 os.path.join(self.state, "journal.prev")],
                                capture_output=True, text=True, timeout=WAIT_S)
        self.assertEqual(0, replay.returncode, replay.stdout + replay.stderr)

    def test_a_file_system_turned_read_only_lets_the_drain_finish(self):
        if not shutil.which("mkfs.ext4") or not shutil.which("findmnt"):
            self.skipTest("mkfs.ext4 and findmnt are needed (scripts/install-deps.sh)")
        image = os.path.join(self.world.dir, "ext4.img")
        with open(image, "wb") as f:
            f.truncate(8 * 1024 * 1024)
        made = subprocess.run(["mkfs.ext4", "-q", image], capture_output=True, text=True)
        if made.returncode != 0:
            self.skipTest("mkfs.ext4 cannot make the journal's file system: " + made.stderr)
        self.mount_or_skip("-o", "loop,errors=remount-ro", image)
        device = subprocess.run(["findmnt", "-no", "SOURCE", self.state], capture_output=True,
                                text=True).stdout.strip()
        trigger = "/sys/fs/ext4/%s/trigger_fs_error" % os.path.basename(device)
        if not os.path.exists(trigger):
            self.skipTest("ext4 offers no %s to turn it read-only" % trigger)
        os.chmod(self.state, 0o700)
        self.start_draining()
        with open(trigger, "w") as f:
            f.write("runwarden journal test\n")
        self.drain()
        refused = self.wait_for_log(r"journal: cannot append to \S+: Read-only file system; "
                                    r"the drain goes on")
        self.assertIsNotNone(refused, self.world.log())
        self.assertEqual(0, self.journal_metrics()["runwarden_journal_healthy"])
        self.finish()
        self.assertIn("cannot retire journal", self.world.log())


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

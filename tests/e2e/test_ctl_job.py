#!/usr/bin/python3
"""Jobs reported with `runwarden ctl job start|end`, end to end, with real processes: a generic
runner without metrics (job_reporting_runner.py) reports its job as GitHub's job hooks would.

- Status knows the job: jobs_running 1 and the job's id, from the report alone.
- A warden killed and started again by the keeper still knows it (the journal holds it).
- A drain waits for the job's end: the Watch stream shows the drain with one job left, then
  none once the runner reported the end, and only then the runner's exit (gone, exit 0).
Nothing waits a fixed time: every wait reads the Watch stream, the status or the record.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_ctl_job.py
"""

import json
import os
import signal
import subprocess
import sys
import unittest

from keeper_family import kill_warden, wait_for_warden

from generic_runner_world import RUNWARDEN, WAIT_S, GenericRunnerWorld, eventually

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "job_reporting_runner.py")
JOB = "4711-1-build"


class CtlJob(GenericRunnerWorld, unittest.TestCase):
    prefix = "runwarden-ctl-job-"

    def setUp(self):
        super().setUp()
        self.finish = os.path.join(self.dir, "finish")

    def start_warden(self):
        return super().start_warden(
            '[runner]\nkind = "generic"\n',
            ["/usr/bin/python3", RUNNER, RUNWARDEN, self.socket, self.record, self.finish, JOB])

    def ctl(self, *args):
        return subprocess.run([RUNWARDEN, "ctl", "--socket", self.socket] + list(args),
                              capture_output=True, text=True, timeout=WAIT_S)

    def status(self):
        done = self.ctl("status", "--json")
        return json.loads(done.stdout) if done.returncode == 0 else None

    def watch(self):
        watch = subprocess.Popen([RUNWARDEN, "ctl", "--socket", self.socket, "status", "--watch",
                                  "--json"], stdout=subprocess.PIPE, text=True)
        self.processes.append(watch)
        return watch

    def next_status(self, watch, condition):
        """Reads the Watch stream until a status meets `condition`; returns it."""
        for line in watch.stdout:
            status = json.loads(line)
            if condition(status):
                return status
        self.fail("the Watch stream ended first:\n" + self.log())

    def test_status_shows_the_reported_job_and_a_drain_waits_for_its_end(self):
        warden = self.start_warden()
        self.assertTrue(eventually(lambda: "started" in self.lines()), self.log())
        status = self.status()
        self.assertEqual(1, status["jobs_running"], status)
        self.assertEqual([JOB], status["reported_jobs"], status)
        self.assertIn("(reported: %s)" % JOB, self.ctl("status").stdout)

        watch = self.watch()
        self.next_status(watch, lambda s: s["state"] == "running")
        warden.send_signal(signal.SIGTERM)
        draining = self.next_status(watch, lambda s: s["state"] == "shutting_down")
        self.assertEqual(1, draining["jobs_running"], draining)
        self.assertTrue(eventually(lambda: "term" in self.lines()), self.lines())
        self.assertIsNone(warden.poll(), "the drain did not wait for the job")

        with open(self.finish, "w"):
            pass  # the job may finish now
        idle = self.next_status(watch, lambda s: s["jobs_running"] == 0 or s["state"] == "gone")
        self.assertEqual("shutting_down", idle["state"], idle)
        self.assertEqual([], idle["reported_jobs"], idle)
        gone = self.next_status(watch, lambda s: s["state"] == "gone")
        self.assertEqual(0, gone["exit_code"], gone)
        self.assertEqual(0, warden.wait(timeout=WAIT_S), self.log())
        self.assertEqual(["job start rc=0 ", "started", "term", "job end rc=0 ", "exit 0"],
                         self.lines())
        log = self.log()
        self.assertLess(log.index("job %s ended" % JOB),
                        log.index("the runner's last job finished"), log)

    def test_a_restarted_warden_still_knows_the_job(self):
        warden = self.start_warden()
        self.assertTrue(eventually(lambda: "started" in self.lines()), self.log())
        killed = kill_warden(warden)
        self.assertIsNotNone(killed, self.log())
        self.assertIsNotNone(wait_for_warden(warden, other_than=killed), self.log())
        self.assertTrue(eventually(lambda: (self.status() or {}).get("reported_jobs") == [JOB]),
                        self.log())
        self.assertEqual(1, self.status()["jobs_running"])

    def test_bad_job_ids_are_refused(self):
        self.start_warden()
        self.assertTrue(eventually(lambda: "started" in self.lines()), self.log())
        done = self.ctl("job", "start", "a\tb")
        self.assertEqual(65, done.returncode, done.stderr)
        self.assertIn("control character", done.stderr)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY to the runwarden binary")
    unittest.main()

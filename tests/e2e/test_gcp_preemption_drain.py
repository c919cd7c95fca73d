#!/usr/bin/python3
"""Google Cloud drains end to end, with real processes and sockets only.

runwarden supervises fake_gitlab_runner.py with one job running and waits on
fake_gce_metadata.py (the Compute Engine metadata server as Google documents it: headers
both ways, ETags, wait_for_change hanging until a change or timeout_sec) through
[cloud] provider = "gcp" and [gcp] metadata_endpoint.

- Preemption: instance/preempted turns TRUE. The hanging wait answers at once, the drain
  starts with the preemption deadline, and since that deadline is shorter than
  drain.unregister_alongside_below, the GitLab runner is unregistered alongside the drain:
  a status shows the unregistration under way while the job still runs. The job finishes
  (the runner exits 0 after SIGQUIT), the runner is deleted once, runwarden exits 0.
- The same preemption with cloud.provider = "auto", the other clouds' endpoints closed: the
  start-up probes find Google Cloud and say so in the log.
- Host maintenance: MIGRATE_ON_HOST_MAINTENANCE changes nothing; then
  TERMINATE_ON_HOST_MAINTENANCE drains with the configured deadline, unregistering after
  the stop as usual.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_gcp_preemption_drain.py
"""

import datetime
import os
import sys
import time
import unittest

from aws_world import JsonLinesFake
from drain_world import HERE, RUNWARDEN, TOKEN, WAIT_S, DrainWorld, free_port
from test_lifecycle_hook_drain import moment

FAKE_GCE = os.path.join(HERE, "..", "gcp", "fake_gce_metadata.py")
JOB_SECONDS = 4.0


class GcpDrainTest(unittest.TestCase):
    PROVIDER = "gcp"

    def setUp(self):
        self.gce = JsonLinesFake([FAKE_GCE])
        closed = free_port()  # nothing listens: the other clouds' probes find nobody
        config = ('\n[cloud]\nprovider = "%s"\n[gcp]\nmetadata_endpoint = "http://127.0.0.1:%d"\n'
                  'preemption_deadline = "25s"\nhost_maintenance_deadline = "2m"\n'
                  '[aws]\nimds_endpoint = "http://127.0.0.1:%d"\n'
                  '[azure]\nmetadata_endpoint = "http://127.0.0.1:%d"\n'
                  % (self.PROVIDER, self.gce.port, closed, closed))
        self.world = DrainWorld([], jobs=1, job_seconds=JOB_SECONDS, extra_config=config)
        self.warden = self.world.start_warden()
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1),
                             "the runner's job never showed in status")

    def tearDown(self):
        self.world.close()
        self.gce.close()

    def waits_seen(self, path):
        return [line for line in self.gce.lines
                if line.get("path") == path and line["query"].get("wait_for_change") == "true"]

    def finish(self):
        self.assertEqual(0, self.warden.wait(timeout=WAIT_S + JOB_SECONDS))
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])
        deletes = [c for c in self.world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([204], [c["status"] for c in deletes])
        log = self.world.log()
        self.assertNotIn(TOKEN, log)
        self.assertTrue(all(line["flavor"] for line in self.gce.lines if "path" in line))
        return log

    def drain_after(self, change, trigger, deadline_s):
        changed = datetime.datetime.now(datetime.timezone.utc)
        self.gce.command(**change)
        status = self.world.wait_for(lambda s: s.get("state") == "shutting_down")
        self.assertIsNotNone(status)
        self.assertEqual(trigger, status.get("trigger"))
        started = moment(status["drain_started_at"])
        self.assertGreaterEqual((started - changed).total_seconds(), -1.0)
        deadline = moment(status["deadline"])
        # The deadline counts from when the notice was seen, a moment before the drain began.
        self.assertLess(abs((deadline - started).total_seconds() - deadline_s), 1.0)
        return status

    def test_preemption_drains_and_unregisters_alongside(self):
        self.drain_after({"preempted": "TRUE"}, "gcp_preemption", 25.0)
        alongside = self.world.wait_for(lambda s: s.get("drain_phase") == "unregistering")
        self.assertIsNotNone(alongside, "the unregistration did not run alongside the drain")
        self.assertEqual(1, alongside.get("jobs_running"), "the job was not running any more")
        log = self.finish()
        self.assertIn("unregistering alongside the drain", log)
        self.assertIn("managed instance group \"runners\"", log)
        # The watch was waiting (wait_for_change) when the change came, not polling.
        self.assertTrue(self.waits_seen("/computeMetadata/v1/instance/preempted"))

    def wait_for_log(self, text):
        """The log is a lasting record: waiting for a line in it samples nothing transient."""
        deadline = time.monotonic() + WAIT_S
        while text not in self.world.log():
            self.assertLess(time.monotonic(), deadline, "never logged: " + text)
            time.sleep(0.05)

    def test_host_maintenance_terminate_drains_migrate_does_not(self):
        self.gce.command(maintenance_event="MIGRATE_ON_HOST_MAINTENANCE")
        self.wait_for_log("live-migrates this instance")
        self.gce.command(maintenance_event="NONE")
        self.wait_for_log("host maintenance MIGRATE_ON_HOST_MAINTENANCE is over")
        status = self.drain_after({"maintenance_event": "TERMINATE_ON_HOST_MAINTENANCE"},
                                  "gcp_host_maintenance", 120.0)
        # The drain is the termination's: the migration before it started none.
        self.assertIn("TERMINATE_ON_HOST_MAINTENANCE", status.get("reason"))
        log = self.finish()
        self.assertNotIn("unregistering alongside the drain", log)


class GcpDetectedTest(GcpDrainTest):
    """The same drains with cloud.provider = "auto": the probes find Google Cloud."""
    PROVIDER = "auto"

    def test_host_maintenance_terminate_drains_migrate_does_not(self):
        self.skipTest("the preemption case covers the detected cloud")

    def test_preemption_drains_and_unregisters_alongside(self):
        super().test_preemption_drains_and_unregisters_alongside()
        self.assertIn('cloud.provider "auto": found gcp (aws: no answer, azure: no answer, '
                      'gcp: answers)', self.world.log())


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

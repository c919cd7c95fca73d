#!/usr/bin/python3
"""Azure Scheduled Events drains end to end, with real processes and sockets only.

runwarden supervises fake_gitlab_runner.py with one job running and polls
fake_azure_metadata.py (the Instance Metadata Service's Scheduled Events as Microsoft
documents them: "Metadata: true" and api-version enforced, DocumentIncarnation,
StartRequests) through [cloud] provider = "azure" and [azure] metadata_endpoint.

- Spot eviction: a Preempt naming this machine, 30 s ahead, drains with NotBefore minus the
  margin; the GitLab runner is unregistered alongside the drain (the deadline is short); the
  job finishes (the runner exits 0 after SIGQUIT); only then, with the runner gone and
  unregistered, is the event approved, once, with its EventId.
- Scale-in: a Terminate for another instance of the scale set drains nothing; one naming
  this machine drains with its NotBefore, unregisters after the stop, and is approved once.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_azure_drain.py
"""

import os
import sys
import time
import unittest

from aws_world import JsonLinesFake
from drain_world import HERE, RUNWARDEN, TOKEN, WAIT_S, DrainWorld
from test_lifecycle_hook_drain import moment

FAKE_AZURE = os.path.join(HERE, "..", "azure", "fake_azure_metadata.py")
THIS_MACHINE = "runners_3"  # fake_azure_metadata.py's compute name
JOB_SECONDS = 4.0


def event(event_id, event_type, resource, in_seconds):
    return {"EventId": event_id, "EventType": event_type, "ResourceType": "VirtualMachine",
            "Resources": [resource], "EventStatus": "Scheduled", "in_seconds": in_seconds,
            "Description": "e2e", "EventSource": "Platform", "DurationInSeconds": -1}


class AzureDrainTest(unittest.TestCase):
    def setUp(self):
        self.azure = JsonLinesFake([FAKE_AZURE])
        config = ('\n[cloud]\nprovider = "azure"\n[azure]\n'
                  'metadata_endpoint = "http://127.0.0.1:%d"\npoll_interval = "200ms"\n'
                  % self.azure.port)
        self.world = DrainWorld([], jobs=1, job_seconds=JOB_SECONDS, extra_config=config)
        self.warden = self.world.start_warden()
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 1),
                             "the runner's job never showed in status")

    def tearDown(self):
        self.world.close()
        self.azure.close()

    def approvals(self):
        return [line["body"] for line in self.azure.lines if line.get("method") == "POST"]

    def drain_for(self, events, trigger, event_id):
        self.azure.command(events=events)
        status = self.world.wait_for(lambda s: s.get("state") == "shutting_down")
        self.assertIsNotNone(status)
        self.assertEqual(trigger, status.get("trigger"))
        self.assertIn(event_id, status.get("reason"), "another event started the drain")
        return status

    def finish(self, event_id):
        """The approval comes once, as the wind-down's completion step, with the runner gone
        and unregistered. The Watch stream gives a slow reader the newest status, so the
        short `completing` phase may be replaced by `gone` before it is read (it was, under
        load): the drain's end is read from the `gone` status, and the order from the log,
        where the approval's answer follows the unregistration. That the approval waits
        for the runner's end is the drain machine's rule (its unit tests)."""
        gone = self.world.wait_for(lambda s: s.get("state") == "gone")
        self.assertIsNotNone(gone, "the drain never ended")
        self.assertIsNone(gone.get("runner_pid"))
        self.assertTrue(gone.get("unregistration"), "the runner was not unregistered")
        self.assertEqual(event_id, gone.get("lifecycle_hook"))
        self.assertEqual(0, self.warden.wait(timeout=WAIT_S + JOB_SECONDS))
        self.assertEqual([{"StartRequests": [{"EventId": event_id}]}], self.approvals())
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])
        deletes = [c for c in self.world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([204], [c["status"] for c in deletes])
        self.assertTrue(all(line["metadata"] for line in self.azure.lines if "method" in line))
        log = self.world.log()
        self.assertNotIn(TOKEN, log)
        approved = log.find("Azure event %s approved (StartRequests)" % event_id)
        self.assertGreater(approved, log.find("unregistered from the CI server"),
                           "approved before unregistering")
        return log

    def test_preempt_drains_unregisters_alongside_and_is_approved_once_gone(self):
        status = self.drain_for([event("preempt-3", "Preempt", THIS_MACHINE, 30)],
                                "azure_preempt", "preempt-3")
        deadline = moment(status["deadline"])
        started = moment(status["drain_started_at"])
        self.assertLess(abs((deadline - started).total_seconds() - 25.0), 2.0)
        alongside = self.world.wait_for(lambda s: s.get("drain_phase") == "unregistering")
        self.assertIsNotNone(alongside)
        self.assertEqual(1, alongside.get("jobs_running"))
        log = self.finish("preempt-3")
        self.assertIn("unregistering alongside the drain", log)
        self.assertIn("scale set runners", log)

    def test_terminate_for_another_instance_drains_nothing(self):
        self.azure.command(events=[event("terminate-7", "Terminate", "runners_7", 300)])
        # The watcher has read the document once GETs after the command were answered.
        seen = len(self.azure.lines)
        deadline = time.monotonic() + WAIT_S
        while len([l for l in self.azure.lines[seen:] if l.get("method") == "GET"]) < 3:
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.05)
        self.assertEqual("running", self.world.status().get("state"))
        self.drain_for([event("terminate-7", "Terminate", "runners_7", 300),
                        event("terminate-3", "Terminate", THIS_MACHINE, 300)],
                       "azure_terminate", "terminate-3")
        log = self.finish("terminate-3")
        self.assertNotIn("unregistering alongside the drain", log)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

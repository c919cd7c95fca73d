#!/usr/bin/python3
"""A generic runner's signals, with real processes: sigterm_twice_runner.py has no SIGTERM
handler for its first half second, and aborts its job on a second SIGTERM.

- A drain that comes as the runner starts holds the graceful signal (drain.start_grace),
  so the runner is not killed by a signal it cannot handle yet: its job finishes, exit 0.
- A signal is sent once: the warden killed with SIGKILL after its SIGTERM reached the runner
  (the journal records the delivery) is started again by the keeper (src/keeper/keeper.hpp),
  recovers from its journal and does not send it again, so the job finishes. The keeper is
  the runner's parent and tells the new warden the runner's real end: runwarden exits 0, not
  75 (the end unknown). The test kills the warden, never the keeper (a machine crash), and
  starts no second runwarden; the runner writes to its pipes every 0.2 s and dies of SIGPIPE
  if they break (go_runner_output.py), so it finishes only if the keeper kept them.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_generic_runner_signals.py
"""

import os
import signal
import subprocess
import sys
import unittest

from keeper_family import kill_warden, wait_for_warden

from generic_runner_world import RUNWARDEN, WAIT_S, GenericRunnerWorld, eventually

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sigterm_twice_runner.py")


class GenericRunnerSignals(GenericRunnerWorld, unittest.TestCase):
    prefix = "runwarden-signals-"

    def start_warden(self, start_grace, handlers_after_s, job_s):
        return super().start_warden(
            '[runner]\nkind = "generic"\n\n[drain]\nstart_grace = "%s"\n' % start_grace,
            ["/usr/bin/python3", RUNNER, self.record, str(handlers_after_s), str(job_s)])

    def journal_records_delivery(self):
        done = subprocess.run([RUNWARDEN, "replay", os.path.join(self.dir, "state", "journal")],
                              capture_output=True, text=True, timeout=WAIT_S)
        return "runner_signal_delivered SIGTERM" in done.stdout

    def test_a_drain_as_the_runner_starts_waits_for_it(self):
        warden = self.start_warden("2s", handlers_after_s=0.5, job_s=0.3)
        self.assertTrue(eventually(lambda: any(l.startswith("start") for l in self.lines())))
        warden.send_signal(signal.SIGTERM)  # the runner has no handler yet
        self.assertEqual(0, warden.wait(timeout=WAIT_S), self.log())
        lines = self.lines()
        self.assertEqual(["ready", "term 1", "exit 0"], lines[1:], lines)
        self.assertIn("the graceful signal waits", self.log())

    def test_a_delivered_signal_is_not_sent_again_after_recovery(self):
        first = self.start_warden("0s", handlers_after_s=0.0, job_s=2.0)
        self.assertTrue(eventually(lambda: "ready" in self.lines()))
        first.send_signal(signal.SIGTERM)
        self.assertTrue(eventually(lambda: "term 1" in self.lines()), self.lines())
        self.assertTrue(eventually(self.journal_records_delivery), self.log())
        killed = kill_warden(first)
        self.assertIsNotNone(killed, self.log())
        self.assertIsNotNone(wait_for_warden(first, other_than=killed), self.log())
        self.assertEqual(0, first.wait(timeout=WAIT_S), self.log())
        lines = self.lines()
        self.assertEqual(["ready", "term 1", "exit 0"], lines[1:], lines)
        log = self.log()
        self.assertIn("continuing from the journal", log)
        self.assertNotIn("exit status unknown", log)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY to the runwarden binary")
    unittest.main()

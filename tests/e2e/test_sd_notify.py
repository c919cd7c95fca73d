#!/usr/bin/python3
"""What runwarden tells systemd through a whole gitlab-runner drain, over the real protocol.

The test plays systemd's side of sd_notify(3): it binds an AF_UNIX SOCK_DGRAM socket, names
it in NOTIFY_SOCKET with a one-second WATCHDOG_USEC, and reads every datagram runwarden
sends, with the sender's credentials (SO_PASSCRED) as systemd checks them for
NotifyAccess=main. runwarden supervises fake_gitlab_runner.py (real Prometheus metrics) in
the shared DrainWorld and is stopped with SIGTERM, as `systemctl stop` does. Waiting is done
on the datagrams themselves (READY=1, the job count), never on a sleep. Checked: READY=1
once, after the runner runs, before STOPPING=1; STOPPING=1 once, when the drain begins, with
an EXTEND_TIMEOUT_USEC= beside it; the STATUS= lines a person reads, jobs counting down;
the unregistering line; `gone, exit code 0` last; WATCHDOG=1 pings; every datagram from
runwarden's own pid.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_sd_notify.py
"""

import os
import re
import signal
import sys
import unittest

from drain_world import WAIT_S, DrainWorld
from notify_listener import NotifyListener


class NotifyTest(unittest.TestCase):
    def setUp(self):
        self.world = DrainWorld([{"status": 500}])
        self.listener = NotifyListener(self.world.dir, WAIT_S)

    def tearDown(self):
        self.listener.close()
        self.world.close()

    def test_a_whole_drain_as_systemd_hears_it(self):
        environment = dict(os.environ, NOTIFY_SOCKET=self.listener.path, WATCHDOG_USEC="1000000")
        warden = self.world.start_warden(env=environment)
        self.listener.wait_for_line("READY=1")
        self.listener.wait_for_line("STATUS=running, 2 jobs")
        warden.send_signal(signal.SIGTERM)
        self.assertEqual(0, warden.wait(timeout=WAIT_S))

        listener = self.listener
        self.assertTrue(all(pid == warden.pid for pid, _ in listener.datagrams),
                        "datagrams from another process: %r" % listener.datagrams)
        lines = listener.lines()
        sent = [line for line in lines if line != "WATCHDOG=1"]
        self.assertEqual(1, lines.count("READY=1"))
        self.assertEqual(1, lines.count("STOPPING=1"))
        self.assertLess(sent.index("STATUS=running, 2 jobs"), sent.index("STOPPING=1"))
        self.assertLess(sent.index("READY=1"), sent.index("STOPPING=1"))
        self.assertIn("WATCHDOG=1", lines, "the watchdog was never pinged")

        stopping = next(lines for _, lines in listener.datagrams if "STOPPING=1" in lines)
        extensions = [line for line in stopping if line.startswith("EXTEND_TIMEOUT_USEC=")]
        self.assertEqual(1, len(extensions), "STOPPING=1 without an extension: %r" % stopping)
        self.assertGreater(int(extensions[0].split("=")[1]), 0)

        statuses = [line[len("STATUS="):] for line in sent if line.startswith("STATUS=")]
        draining = statuses[statuses.index("running, 2 jobs") + 1:]
        jobs_left = [int(m.group(1)) for m in
                     (re.match(r"draining: (\d+) jobs? left", s) for s in draining) if m]
        self.assertTrue(jobs_left, "no draining status with jobs: %r" % statuses)
        self.assertEqual(sorted(jobs_left, reverse=True), jobs_left)
        self.assertIn("unregistering from 127.0.0.1", statuses)
        self.assertTrue(statuses[-1].startswith("gone, exit code 0"), statuses[-1])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)

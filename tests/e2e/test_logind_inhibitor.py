#!/usr/bin/python3
"""The logind shutdown delay lock, end to end, against a fake logind on a private bus.

No systemd manager and no system bus are touched: the test starts its own dbus-daemon
(`dbus-daemon --session`, a bus of this user's only) and tests/os/fake_logind.py on it, which
serves org.freedesktop.login1.Manager.Inhibit as logind documents it and sees the lock's
descriptor close from its own end of the pipe. runwarden finds the bus through
DBUS_SYSTEM_BUS_ADDRESS, as sd-bus does for the system bus, and supervises
fake_gitlab_runner.py (two jobs) in the shared DrainWorld.

- While the jobs run the lock is held: one Inhibit, for "shutdown" in "delay" mode, by
  "runwarden", and no release.
- A drain (SIGTERM) releases it once the jobs are done, while runwarden still unregisters
  (the fake GitLab API fails first, so the warden is alive for seconds after): the release
  comes from the decision, not from the process's end. It is never taken again.
- logind's PrepareForShutdown(true), as `shutdown -h` sends it: runwarden drains at once
  (trigger os_shutdown, the reason names logind), the job count falls, the lock goes once
  the jobs are done, and runwarden exits 0, all without a signal.
- A bus without logind (no fake): runwarden says so once, holds nothing, and drains as usual.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_logind_inhibitor.py
"""

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import unittest

from drain_world import HERE, RUNWARDEN, WAIT_S, DrainWorld

FAKE_LOGIND = os.path.join(HERE, "..", "os", "fake_logind.py")


class PrivateBus:
    """A dbus-daemon of this test's own, and its address."""

    def __init__(self):
        self.process = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.process.stdout.readline().strip()
        assert self.address.startswith("unix:"), self.address

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process.stdout.close()


class FakeLogind:
    """fake_logind.py on the bus; its JSON lines, as they come."""

    def __init__(self, address):
        self.process = subprocess.Popen(["/usr/bin/python3", FAKE_LOGIND, address],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.events = []
        self.arrivals = queue.Queue()
        self.acks = queue.Queue()
        self.commands = 0
        assert json.loads(self.process.stdout.readline()) == {"ready": True}
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            event = json.loads(line)
            if "ack" in event:
                self.acks.put(event)
                continue
            self.events.append(event)
            self.arrivals.put(event)

    def command(self, **keys):
        self.commands += 1
        self.process.stdin.write(json.dumps(keys) + "\n")
        self.process.stdin.flush()
        assert self.acks.get(timeout=10) == {"ack": self.commands}

    def next_event(self, timeout=WAIT_S):
        return self.arrivals.get(timeout=timeout)

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)
        self.reader.join(timeout=5)
        self.process.stdout.close()


class LogindInhibitorTest(unittest.TestCase):
    def setUp(self):
        # The unregistration fails twice first: the warden outlives the runner by seconds.
        self.world = DrainWorld([{"status": 500}, {"status": 429,
                                                   "headers": {"Retry-After": "1"}}])
        self.bus = PrivateBus()
        self.logind = None
        self.environment = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.bus.address)

    def tearDown(self):
        self.world.close()
        if self.logind:
            self.logind.close()
        self.bus.close()

    def test_the_lock_is_held_while_jobs_run_and_released_when_they_are_done(self):
        self.logind = FakeLogind(self.bus.address)
        warden = self.world.start_warden(env=self.environment)
        taken = self.logind.next_event()
        self.assertEqual({"event": "inhibit", "id": 1, "what": "shutdown", "who": "runwarden",
                          "mode": "delay", "uid": os.getuid()},
                         {k: v for k, v in taken.items() if k != "why"})
        self.assertTrue(taken["why"], "no reason given for systemd-inhibit --list")
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 2))
        time.sleep(0.5)  # a release now would be a bug; give it the time to show
        self.assertEqual([taken], self.logind.events, "released while the jobs still run")

        warden.send_signal(signal.SIGTERM)
        released = self.logind.next_event()
        still_running = warden.poll() is None
        self.assertEqual({"event": "released", "id": 1}, released)
        self.assertTrue(still_running, "released only by the warden's exit")
        self.assertEqual(0, warden.wait(timeout=WAIT_S))
        statuses = self.world.watch.wait_until_ended()
        self.assertEqual("gone", statuses[-1]["state"])
        self.assertEqual([taken, released], self.logind.events, "taken again after the drain")

    def test_prepare_for_shutdown_drains_and_the_lock_goes_with_the_jobs(self):
        self.logind = FakeLogind(self.bus.address)
        warden = self.world.start_warden(env=self.environment)
        taken = self.logind.next_event()
        self.assertEqual("inhibit", taken["event"])
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 2))

        self.logind.command(prepare_for_shutdown=True)
        draining = self.world.wait_for(lambda s: s.get("state") == "shutting_down")
        self.assertIsNotNone(draining, "PrepareForShutdown started no drain")
        self.assertIn("PrepareForShutdown", draining["reason"])
        # Its own trigger, not the control API's (a Watch client tells the two apart).
        self.assertEqual("os_shutdown", draining["trigger"])
        self.assertEqual({"event": "released", "id": 1}, self.logind.next_event())
        self.assertEqual(0, warden.wait(timeout=WAIT_S))
        statuses = self.world.watch.wait_until_ended()
        self.assertEqual("gone", statuses[-1]["state"])
        draining = [s for s in statuses if s["state"] == "shutting_down"]
        self.assertIn(1, [s["jobs_running"] for s in draining], "the jobs did not finish")
        self.assertEqual(["exit 0"], self.world.runner_record()[1:])

    def test_a_bus_without_logind_is_said_once_and_changes_nothing(self):
        warden = self.world.start_warden(env=self.environment)
        self.assertIsNotNone(self.world.wait_for(lambda s: s.get("jobs_running") == 2))
        warden.send_signal(signal.SIGTERM)
        self.assertEqual(0, warden.wait(timeout=WAIT_S))
        log = self.world.log()
        said = [line for line in log.splitlines() if "logind:" in line]
        self.assertEqual(1, len(said), said)
        self.assertIn("will not wait for jobs", said[0])


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

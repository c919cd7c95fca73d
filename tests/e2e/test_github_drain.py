#!/usr/bin/python3
"""A GitHub Actions runner's drain, end to end: unregister first, stop after.

GitHub's runner has no signal that finishes its job, so runwarden asks GitHub to remove it
first: GitHub answers 422 "still running a job" while it is busy (the fake does so twice)
and removes it once idle; only then does the runner get its graceful signal. The test
reads every status of the Watch stream (unregistering while the runner still runs, then
draining), the fake API's record (the list, two busy answers, one removal) and
runwarden's log (the signal after the removal).
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_github_drain.py
"""

import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

from drain_world import FAKE_API, RUNWARDEN, WAIT_S, StatusWatch

TOKEN = "ghp_e2eSecretToken0123456789"


class GithubDrainTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="runwarden-gh-")
        scenario = {"github_token": TOKEN,
                    "github_runner": {"id": 77, "name": "box-1", "busy_calls": 2}}
        self.api = subprocess.Popen(["/usr/bin/python3", FAKE_API, json.dumps(scenario)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        port = int(self.api.stdout.readline())
        token_file = os.path.join(self.dir, "github-token")
        with open(token_file, "w") as f:
            f.write(TOKEN + "\n")
        os.chmod(token_file, 0o600)
        self.config = os.path.join(self.dir, "runwarden.toml")
        with open(self.config, "w") as f:
            f.write('[runner]\nkind = "generic"\n\n[unregister]\nkind = "github"\n'
                    'retry_initial = "100ms"\nretry_max = "500ms"\n\n[unregister.github]\n'
                    'api_url = "http://127.0.0.1:%d"\nscope = "repo"\nowner = "acme"\n'
                    'repo = "app"\nrunner_name = "box-1"\ntoken_file = "%s"\n'
                    % (port, token_file))
        self.socket = os.path.join(self.dir, "control.sock")
        self.log_path = os.path.join(self.dir, "runwarden.log")
        self.warden = None
        self.watches = []

    def tearDown(self):
        for watch in self.watches:
            watch.close()
        for process in (self.warden, self.api):
            if process and process.poll() is None:
                process.kill()
                process.wait()
        self.api.stdout.close()

    def test_unregisters_while_busy_is_refused_then_stops_the_runner(self):
        with open(self.log_path, "w") as log:
            self.warden = subprocess.Popen(
                [RUNWARDEN, "run", "--config", self.config, "--grpc-listen",
                 "unix://" + self.socket, "--http-listen", "none",
                 "--state-dir", os.path.join(self.dir, "state"), "--", "/bin/sh", "-c",
                 'trap "exit 0" TERM; while :; do sleep 0.05; done'],
                stdout=log, stderr=subprocess.STDOUT)
        watch = StatusWatch(self.socket, self.warden)
        self.watches.append(watch)
        self.assertIsNotNone(watch.wait_for(lambda s: s["state"] == "running"),
                             "runwarden never said its runner was running")
        self.warden.send_signal(signal.SIGTERM)
        self.assertEqual(0, self.warden.wait(timeout=WAIT_S))
        statuses = watch.wait_until_ended()
        self.assertEqual("gone", statuses[-1]["state"], statuses[-1])

        # Every status published since the SIGTERM, in order: GitHub's runner is
        # unregistered while it still runs, and asked to stop only after. (The stream keeps
        # a slow reader to the newest status, so the moment between the removal and the
        # runner's exit, a few milliseconds here, is not demanded; the log shows its order.)
        draining = [s for s in statuses if s["state"] == "shutting_down"]
        phases = [phase for phase, _ in itertools.groupby(s["drain_phase"] for s in draining)]
        self.assertEqual("unregistering", phases[0], phases)
        self.assertNotIn("unregistering", phases[1:], phases)
        self.assertTrue(all(s["runner_pid"] for s in draining
                            if s["drain_phase"] == "unregistering"),
                        "the runner was stopped before GitHub let it go")

        self.api.stdin.close()
        calls = [json.loads(line) for line in self.api.stdout.read().splitlines() if line]
        deletes = [c for c in calls if c["method"] == "DELETE"]
        self.assertEqual([422, 422, 204], [c["status"] for c in deletes])
        self.assertTrue(all(c["path"] == "/repos/acme/app/actions/runners/77" for c in deletes))
        with open(self.log_path) as f:
            log = f.read()
        self.assertNotIn(TOKEN, log)
        self.assertLess(log.index("unregistered from the CI server"),
                        log.index("asking the runner to finish its jobs"))


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

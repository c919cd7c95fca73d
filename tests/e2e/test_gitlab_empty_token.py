#!/usr/bin/python3
"""A gitlab-runner config.toml with a [[runners]] entry whose token is empty (issue 31).

gitlab-runner 19.1+ runs such a file: it warns and skips the entry (RunnerCredentials.
HasToken() in common/config.go, feedRunner and reloadConfig in commands/multi.go, checked at
gitlab-runner 19.4.0). runwarden refused it as a config error (exit 78) and so never
started a runner that gitlab-runner itself runs. Now it starts, warns about the entry by
file and line, and unregisters only the entry with a token.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_gitlab_empty_token.py
"""

import signal
import sys
import unittest

from drain_world import RUNWARDEN, TOKEN, WAIT_S, DrainWorld


class GitlabEmptyTokenTest(unittest.TestCase):
    def tearDown(self):
        self.world.close()

    def test_an_entry_without_token_is_skipped_as_gitlab_runner_skips_it(self):
        self.world = world = DrainWorld([], job_seconds=0.5)
        with open(world.gitlab_config, "a") as f:
            f.write('\n[[runners]]\nname = "template"\nurl = "%s"\ntoken = ""\n'
                    'executor = "shell"\n' % world.api_url)
        warden = world.start_warden()
        status = world.wait_for(lambda s: s.get("jobs_running") == 2)
        self.assertIsNotNone(status, "runwarden did not run the runner: " + world.log()[-2000:])

        warden.send_signal(signal.SIGTERM)
        self.assertEqual(0, warden.wait(timeout=WAIT_S))
        deletes = [c for c in world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([204], [c["status"] for c in deletes])
        log = world.log()
        self.assertIn('entry "template" has no token; gitlab-runner skips it', log)
        self.assertNotIn(TOKEN, log)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

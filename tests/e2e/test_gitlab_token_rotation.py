#!/usr/bin/python3
"""A GitLab runner token rotated between runwarden's start and its drain (issue 31).

gitlab-runner resets an expiring runner token and writes the new one into its config.toml
(commands/multi.go resetOneRunnerToken, common/reset_token.go; gitlab-runner MR 3209): it
POSTs the current token to /api/v4/runners/reset_authentication_token, and GitLab answers
201 with a new token and refuses the old one with 403 from then on. fake_ci_api.py does what
GitLab's API documentation says of those routes (its header names what it follows); this
test plays gitlab-runner's part in the rotation: the reset through the fake API, then the
rewrite of the [[runners]] entry in place (os.WriteFile, as gitlab-runner's
defaultConfigSaver does), while runwarden supervises fake_gitlab_runner.py.

- Rotated: the unregistration must carry the new token and be confirmed (204). Before the
  fix runwarden sent the token it read at start, took GitLab's 403 as "already
  unregistered" and left the runner manager registered.
- Removed: a runner whose token GitLab refuses while config.toml still holds it was
  removed; that one 403 ends the unregistration, and the log says which case it was.
Neither token appears in runwarden's output.
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_gitlab_token_rotation.py
"""

import json
import re
import signal
import sys
import unittest
import urllib.parse
import urllib.request

from drain_world import RUNWARDEN, TOKEN, WAIT_S, DrainWorld

ROTATED_TOKEN = "glrt-e2e-rotated-5d1e0b"


def rotate_like_gitlab_runner(world):
    """gitlab-runner's token reset: POST the current token, then save the entry's new token,
    token_obtained_at and token_expires_at into config.toml in place. Returns the token."""
    request = urllib.request.Request(
        world.api_url + "/api/v4/runners/reset_authentication_token",
        data=json.dumps({"token": TOKEN}).encode(), method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201, answer.status
        reset = json.loads(answer.read())
    with open(world.gitlab_config) as f:
        text = f.read()
    text = text.replace('token = "%s"\n' % TOKEN,
                        'token = "%s"\ntoken_obtained_at = 2026-11-29T08:00:00Z\n'
                        'token_expires_at = %s\n' % (reset["token"], reset["token_expires_at"]))
    with open(world.gitlab_config, "w") as f:
        f.write(text)
    return reset["token"]


def tokens_sent(deletes):
    return [urllib.parse.parse_qs(c["body"]).get("token", [""])[0] for c in deletes]


class GitlabTokenRotationTest(unittest.TestCase):
    def tearDown(self):
        self.world.close()

    def drain(self, world):
        warden = world.start_warden()
        status = world.wait_for(lambda s: s.get("jobs_running") == 2)
        self.assertIsNotNone(status, "the runner's jobs never showed in status")
        return warden

    def test_a_token_rotated_after_the_start_unregisters_with_the_new_token(self):
        self.world = world = DrainWorld([], job_seconds=0.5,
                                        api_scenario={"rotated_token": ROTATED_TOKEN})
        warden = self.drain(world)
        self.assertEqual(ROTATED_TOKEN, rotate_like_gitlab_runner(world))

        warden.send_signal(signal.SIGTERM)
        self.assertEqual(0, warden.wait(timeout=WAIT_S))
        deletes = [c for c in world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([204], [c["status"] for c in deletes],
                         "the runner manager must be removed, not taken for gone")
        self.assertEqual([ROTATED_TOKEN], tokens_sent(deletes))
        log = world.log()
        self.assertNotIn(TOKEN, log)
        self.assertNotIn(ROTATED_TOKEN, log)
        self.assertIn("holds a new token for it (gitlab-runner rotated it)", log)

    def test_a_refused_token_that_config_toml_still_holds_means_the_runner_was_removed(self):
        # GitLab knows another token only: this runner was deleted in GitLab meanwhile.
        self.world = world = DrainWorld([], job_seconds=0.5,
                                        api_scenario={"gitlab_token": "glrt-another-runner"})
        warden = self.drain(world)

        warden.send_signal(signal.SIGTERM)
        self.assertEqual(0, warden.wait(timeout=WAIT_S))
        deletes = [c for c in world.api_calls() if c["method"] == "DELETE"]
        self.assertEqual([403], [c["status"] for c in deletes])
        log = world.log()
        self.assertNotIn(TOKEN, log)
        self.assertTrue(re.search(r"refused the token that gitlab-runner's config.toml still "
                                  r"holds: the runner was removed", log), log[-3000:])


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

#!/usr/bin/python3
"""`runwarden sim --seeds A..B --report json` prints one JSON object per seed, each on its
own line and the same document `--seed N --report json` prints for that seed, then one
summary line; text stays the default.
  /usr/bin/python3 tests/sim/json_report_lines.py build/runwarden config/scenarios/github-runners.toml
"""

import json
import subprocess
import sys
import unittest

RUNWARDEN, SCENARIO = sys.argv[1], sys.argv[2]


def sim(*args):
    return subprocess.run([RUNWARDEN, "sim", SCENARIO, *args], capture_output=True, text=True,
                          timeout=240)


class JsonReportLinesTest(unittest.TestCase):
    def test_one_object_per_seed_then_a_summary(self):
        done = sim("--seeds", "3..5", "--report", "json")
        self.assertEqual(0, done.returncode, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(4, len(lines), done.stdout)
        seeds = [json.loads(line) for line in lines[:3]]
        self.assertEqual([3, 4, 5], [s["seed"] for s in seeds])
        single = sim("--seed", "4", "--report", "json")
        self.assertEqual(0, single.returncode, single.stderr)
        self.assertEqual(json.loads(single.stdout), seeds[1])
        summary = json.loads(lines[3])["summary"]
        self.assertEqual({"scenario": SCENARIO, "first_seed": 3, "last_seed": 5, "seeds": 3,
                          "broken": 0, "broken_seeds": []}, summary)

    def test_text_stays_the_default(self):
        done = sim("--seeds", "3..4")
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertTrue(done.stdout.startswith("seed 3: "), done.stdout)
        self.assertEqual("2 seeds, 0 with a broken invariant", done.stdout.splitlines()[-1])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)

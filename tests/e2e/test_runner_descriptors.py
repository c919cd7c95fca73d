#!/usr/bin/python3
"""The runner gets stdin, stdout and stderr from runwarden, and no other descriptor.

runwarden is started with a descriptor it inherits without close-on-exec (as a careless
parent or a service manager's leftovers give it), and runs a runner that lists its own open
descriptors. Before the fix the runner held every such descriptor, and any socket another
thread of runwarden had opened but not yet marked close-on-exec: a runner holding the
control socket kept it answering after runwarden's kill -9, so the restarted runwarden
refused to start (e2e_kill9_recovery, kill point 4.0 s, under load).
  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_runner_descriptors.py
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

RUNWARDEN = os.environ.get("RUNWARDEN_BINARY")


class RunnerDescriptorsTest(unittest.TestCase):
    def test_only_the_standard_streams_reach_the_runner(self):
        with tempfile.TemporaryDirectory() as work:
            leaked = os.open(os.path.join(work, "inherited"), os.O_CREAT | os.O_WRONLY)
            os.set_inheritable(leaked, True)
            try:
                # The runner lists /proc/PID/fd of its own shell, from a child (ls), so the
                # listing's own descriptor is not among them.
                done = subprocess.run(
                    [RUNWARDEN, "run", "--state-dir", os.path.join(work, "state"),
                     "--grpc-listen", "unix://" + os.path.join(work, "control.sock"), "--",
                     "/bin/sh", "-c", "ls /proc/$$/fd"],
                    pass_fds=(leaked,), capture_output=True, text=True, timeout=60)
            finally:
                os.close(leaked)
        self.assertEqual(0, done.returncode, done.stderr)
        listed = re.findall(r"runner: \[stdout \d+\] (\S+)$", done.stderr, re.MULTILINE)
        self.assertIn("0", listed, done.stderr)
        # dash keeps a copy of stdin as fd 10 for its own use; it opens that itself.
        self.assertEqual(["0", "1", "2"], sorted(d for d in listed if d != "10"), done.stderr)


if __name__ == "__main__":
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    unittest.main(verbosity=2)

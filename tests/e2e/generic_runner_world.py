"""A generic runner under `runwarden run`, as the generic-runner tests start it: a scratch
directory with the config, the control socket, the journal's state directory and the log,
and the runner's own record file (one line per thing it did), read back by the test."""

import os
import shutil
import subprocess
import tempfile
import time

RUNWARDEN = os.environ.get("RUNWARDEN_BINARY", "")
WAIT_S = 60  # waits end as soon as their condition holds; this bounds a loaded machine


def eventually(condition, timeout=WAIT_S):
    """Polls a file-backed condition (the runner's record, the journal) until it holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


class GenericRunnerWorld:
    """A unittest mixin: setUp makes the directory, tearDown kills what is left."""

    prefix = "runwarden-generic-"

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix=self.prefix)
        self.socket = os.path.join(self.dir, "control.sock")
        self.record = os.path.join(self.dir, "record")
        self.log_path = os.path.join(self.dir, "runwarden.log")
        self.config = os.path.join(self.dir, "runwarden.toml")
        self.processes = []

    def tearDown(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()
            if process.stdout:
                process.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start_warden(self, config_text, runner_argv, env=None):
        """`runwarden run` with `config_text` over the runner's argv, logging to log_path."""
        with open(self.config, "w") as f:
            f.write(config_text)
        with open(self.log_path, "a") as log:
            warden = subprocess.Popen(
                [RUNWARDEN, "run", "--config", self.config, "--grpc-listen",
                 "unix://" + self.socket, "--http-listen", "none", "--state-dir",
                 os.path.join(self.dir, "state"), "--"] + list(runner_argv),
                stdout=log, stderr=subprocess.STDOUT, env=env)
        self.processes.append(warden)
        return warden

    def lines(self):
        """The runner's record, one entry per line written whole."""
        if not os.path.exists(self.record):
            return []
        with open(self.record) as f:
            return f.read().split("\n")[:-1]

    def log(self):
        with open(self.log_path) as f:
            return f.read()

"""What the whole-process measurements (bench/measure_*.py) share: the runwarden binary,
its config and its process, the fakes of tests/aws/ (started through tests/e2e/aws_world.py,
by way of bench/one_write_imds.py and bench/timed_autoscaling.py), bench/fake_runner.py's
record, percentiles, and the result file.

Every harness runs with Debian's /usr/bin/python3 (botocore, prometheus_client, grpcio) and
takes --build DIR (default: build), --quick (tiny counts, for a smoke test) and --out FILE
(the result as JSON, read by bench/report.py). Timestamps are time.monotonic(), which is
CLOCK_MONOTONIC on Linux and so comparable between the harness and the processes it starts.
Secrets (the fake AWS keys) go through the environment only, never argv, and are never
printed.
"""

import argparse
import errno
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
from aws_world import (ACCESS_KEY, FAKE_IMDS, INSTANCE_ID, REGION, SECRET_KEY,  # noqa: E402
                       SESSION_TOKEN, JsonLinesFake)

FAKE_RUNNER = os.path.join(BENCH, "fake_runner.py")
ONE_WRITE_IMDS = os.path.join(BENCH, "one_write_imds.py")
TIMED_AUTOSCALING = os.path.join(BENCH, "timed_autoscaling.py")
PYTHON = "/usr/bin/python3"
BINARY_WAIT_S = 300  # the binary may be relinked under us by a build
DISK_DIR = "/var/tmp"  # on disk, like /var/lib/runwarden: the journal's fsyncs count
WAIT_S = 30


def arguments(description, **defaults):
    """The common flags; `defaults` adds the harness's own (name=(full, quick))."""
    parser = argparse.ArgumentParser(description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true", help="tiny counts, for a smoke test")
    parser.add_argument("--out", help="write the result here as JSON")
    args = parser.parse_args()
    for name, (full, quick) in defaults.items():
        setattr(args, name, quick if args.quick else full)
    args.binary = os.path.join(args.build, "runwarden")
    return args


def spawn(argv, **options):
    """Popen, waiting out a binary that is missing or busy while a build relinks it."""
    deadline = time.monotonic() + BINARY_WAIT_S
    while True:
        try:
            return subprocess.Popen(argv, **options)
        except OSError as failure:
            if failure.errno not in (errno.ENOENT, errno.ETXTBSY) or time.monotonic() > deadline:
                raise
            time.sleep(1)


def load_average():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def percentile(values, fraction):
    """Nearest rank: the smallest value with at least `fraction` of the values at or below."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(round(len(ordered) * fraction, 9))) - 1]


def distribution(values):
    """Summary in milliseconds (to the microsecond) of a list of seconds."""
    summary = {"n": len(values)}
    for name, fraction in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0)):
        summary[name + "_ms"] = round(percentile(values, fraction) * 1000, 3)
    return summary


def write_result(args, name, result):
    result = dict(result, measurement=name, quick=args.quick,
                  binary_mtime=os.stat(args.binary).st_mtime)
    print(json.dumps(result, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


def wait_until(predicate, what, timeout=WAIT_S, step=0.002):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise TimeoutError("waited %d s for %s" % (timeout, what))


def aws_environment(autoscaling_port=None):
    """The fake credentials (never in argv) and, with a port, the fake Auto Scaling endpoint."""
    env = dict(os.environ)
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_ENDPOINT_URL"):
        env.pop(name, None)
    env.update({"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
                "AWS_SESSION_TOKEN": SESSION_TOKEN})
    if autoscaling_port is not None:
        env["AWS_ENDPOINT_URL_AUTO_SCALING"] = "http://127.0.0.1:%d" % autoscaling_port
    return env


class SeenLinesFake(JsonLinesFake):
    """A JsonLinesFake whose lines get "seen": time.monotonic() as the reader takes them."""

    def _read(self):
        for line in self.process.stdout:
            entry = dict(json.loads(line), seen=time.monotonic())
            self.lines.append(entry)
            if "ack" in entry:
                self.acks.put(entry)


def start_imds(one_write=True):
    """bench/one_write_imds.py, or without `one_write` the tests' fake_imds.py. A request's
    line is printed right before its answer is written, so "seen" is when the answer left,
    plus the pipe's delivery to the reader thread."""
    return SeenLinesFake([ONE_WRITE_IMDS if one_write else FAKE_IMDS])


def start_timed_autoscaling():
    """bench/timed_autoscaling.py with one group holding fake_imds's instance (InService)
    and a terminating hook whose heartbeat timeout (an hour) no measurement reaches."""
    scenario = {"region": REGION, "access_key": ACCESS_KEY, "secret_key": SECRET_KEY,
                "session_token": SESSION_TOKEN,
                "groups": [{"name": "runners", "min": 0, "max": 4, "desired": 1,
                            "instances": [{"id": INSTANCE_ID}],
                            "hooks": [{"name": "drain-runner", "transition": "terminating",
                                       "heartbeat_timeout": 3600}]}]}
    return JsonLinesFake([TIMED_AUTOSCALING, json.dumps(scenario)])


def filesystem(path):
    """The type of the filesystem holding `path` (the longest mount point above it)."""
    path = os.path.realpath(path)
    with open("/proc/mounts") as f:
        mounts = [line.split()[1:3] for line in f]
    inside = [(point, kind) for point, kind in mounts
              if path == point or path.startswith(point.rstrip("/") + "/")]
    return max(inside, key=lambda mount: len(mount[0]))[1]


class Warden:
    """One runwarden run in a fresh directory under `parent` (config, journal, control
    socket, log), kept when runwarden fails."""

    def __init__(self, binary, config_text, env=None, hold=False, command=None,
                 parent=DISK_DIR):
        """Without `command`, the runner is bench/fake_runner.py (`hold`: see there)."""
        self.dir = tempfile.mkdtemp(prefix="rw-bench-", dir=parent)
        self.config = os.path.join(self.dir, "runwarden.toml")
        with open(self.config, "w") as f:
            f.write(config_text)
        self.socket = os.path.join(self.dir, "control.sock")
        self.record = os.path.join(self.dir, "runner-record")
        if command is None:
            command = [PYTHON, FAKE_RUNNER, self.record] + (["--hold"] if hold else [])
        # kind gitlab: the graceful signal is SIGQUIT, as for gitlab-runner.
        self.argv = [binary, "run", "--config", self.config, "--kind", "gitlab",
                     "--grpc-listen", "unix://" + self.socket, "--http-listen", "none",
                     "--state-dir", os.path.join(self.dir, "state"), "--"] + command
        self.env = env
        self.process = None

    def start(self):
        with open(os.path.join(self.dir, "runwarden.log"), "a") as log:
            self.process = spawn(self.argv, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        return self.process

    def runner_events(self):
        """bench/fake_runner.py's record: {"ready": t, "quit": t, "exit": t, "pid": n}."""
        try:
            with open(self.record) as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            return {}
        events = {}
        for line in lines:
            name, value = line.split()
            events[name] = int(value) if name == "pid" else float(value)
        return events

    def wait_for_event(self, name):
        return wait_until(lambda: self.runner_events().get(name), "runner event " + name)

    def stop(self):
        """Ends runwarden (a drain: SIGTERM) if still there; its exit code."""
        if self.process.poll() is None:
            self.process.terminate()
        code = self.process.wait(timeout=WAIT_S)
        if code == 0:
            shutil.rmtree(self.dir, ignore_errors=True)
        return code


def aws_config(imds_port, poll_interval, complete_hooks):
    return ('[cloud]\nprovider = "aws"\n[aws]\nimds_endpoint = "http://127.0.0.1:%d"\n'
            'poll_interval = "%s"\ncomplete_lifecycle_hooks = %s\n'
            % (imds_port, poll_interval, "true" if complete_hooks else "false"))


def new_lines(fake, since, **match):
    """fake's output lines from index `since` on with every key of `match` equal."""
    return [line for line in fake.lines[since:]
            if all(line.get(key) == value for key, value in match.items())]

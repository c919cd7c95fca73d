#!/usr/bin/python3
"""A stand-in for gitlab-runner with real Prometheus metrics, for runwarden's end-to-end tests.

Usage: fake_gitlab_runner.py PORT JOBS SECONDS [RECORD]. Serves /metrics on 127.0.0.1:PORT, written
by Debian's python3-prometheus-client exactly as gitlab-runner names its series: an idle
gitlab_runner_jobs series at 0 always, one "running" series with the jobs in progress,
gitlab_runner_concurrent. JOBS jobs start at once; each takes SECONDS after the drain
begins, the later ones a little longer, so the count falls one by one. A count is held
until /metrics has served it three times, down to 0 before the exit: a scraper then has
seen every count however slow the machine (a scrape starts only after the one before was
answered), and for two scrape intervals, so a test can demand each count without racing
the scrape interval. SIGQUIT (gitlab-
runner's graceful shutdown) lets the jobs finish, then exits 0; SIGTERM aborts them and
exits 1, as gitlab-runner does. RECORD, when given, gets a line "start PID" at start and
"exit CODE" at the end, so a test can tell how many runners ran and how each ended.
"""

import os
import signal
import sys
import threading
import time

from prometheus_client import CollectorRegistry, Gauge, start_http_server
from prometheus_client.core import GaugeMetricFamily

port, jobs, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
record = sys.argv[4] if len(sys.argv) > 4 else None


def note(line):
    if record:
        with open(record, "a") as f:
            f.write(line + "\n")


note("start %d" % os.getpid())
SCRAPES_PER_COUNT = 3


class RunningJobs:
    """gitlab_runner_jobs as gitlab-runner names its series: an idle series at 0 always, and
    the running jobs; counts how often the present count was served."""

    def __init__(self, count):
        self.lock = threading.Condition()
        self.count, self.served = count, 0

    def collect(self):
        family = GaugeMetricFamily("gitlab_runner_jobs", "The current number of running builds.",
                                   labels=["executor_stage", "runner", "stage", "state"])
        with self.lock:
            family.add_metric(["", "abc123", "", ""], 0)
            family.add_metric(["step_script", "abc123", "build", "running"], self.count)
            self.served += 1
            self.lock.notify_all()
        yield family

    def set_after_seen(self, count, unless):
        """Sets the count once the present one was served SCRAPES_PER_COUNT times; gives up
        when the event `unless` is set (short waits, so a signal's handler gets to run)."""
        with self.lock:
            while self.served < SCRAPES_PER_COUNT and not unless.is_set():
                self.lock.wait(0.02)
            if count != self.count:
                self.count, self.served = count, 0


registry = CollectorRegistry()
series = RunningJobs(jobs)
registry.register(series)
Gauge("gitlab_runner_concurrent", "The current value of concurrent setting",
      registry=registry).set(4)
start_http_server(port, addr="127.0.0.1", registry=registry)

draining = threading.Event()
aborted = threading.Event()
signal.signal(signal.SIGQUIT, lambda *_: draining.set())
signal.signal(signal.SIGTERM, lambda *_: aborted.set())
print("ready", flush=True)

while not draining.is_set() and not aborted.is_set():
    time.sleep(0.02)
began = time.monotonic()
left = jobs
while left > 0 and not aborted.is_set():
    finished = sum(1 for n in range(jobs) if time.monotonic() - began >= seconds + 0.5 * n)
    if jobs - finished < left:
        left -= 1  # one at a time: each count is seen
        series.set_after_seen(left, unless=aborted)
    time.sleep(0.02)
if not aborted.is_set():
    series.set_after_seen(0, unless=aborted)
    time.sleep(0.5)  # gitlab-runner, too, takes a moment between its last job and its exit
code = 1 if aborted.is_set() else 0
note("exit %d" % code)
sys.exit(code)

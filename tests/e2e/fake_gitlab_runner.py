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
the scrape interval. RECORD, when given, gets a line "start PID" at start and "exit CODE"
at the end, so a test can tell how many runners ran and how each ended. The page also has
gitlab-runner 19.1+'s gitlab_runner_process_state_info{state} (one series at 1, as
commands/internal/process_state/tracker.go sets it).

Signals follow gitlab-runner 19.4's commands/multi.go (handleGracefulShutdown,
handleForcefulShutdown): SIGQUIT starts a graceful shutdown (state graceful-shutdown: the
jobs finish, then exit 0) and a repeated SIGQUIT keeps it graceful; SIGTERM or SIGINT, first
or during a graceful shutdown, starts the forceful one (state forceful-shutdown: the jobs
are aborted, exit 1); any stop signal during the forceful shutdown exits at once (exit 1).

With FAKE_RUNNER_RELEASE_FILE set, a graceful shutdown holds its last job until that file
exists, so a test can observe the shutdown for as long as it needs, then let it end.

It writes as gitlab-runner does (go_runner_output.py, checked against commands/multi.go and
Go's os/signal documentation): logrus text lines on stderr at start, per job ("Checking for
jobs... received", "Job succeeded"), when a shutdown begins and before the exit; every 0.2 s
the debug line "Feeding runners to channel" on stderr and, the fake's own addition, a
"checking for jobs" line on stdout, so that a broken pipe on either is met at once. SIGPIPE
has its default action, as in a Go program: when nobody reads its output any more (its
supervisor died and nobody holds the pipes), the next write kills it with SIGPIPE.
"""

import os
import signal
import sys
import threading
import time

from prometheus_client import CollectorRegistry, Gauge, start_http_server
from prometheus_client.core import GaugeMetricFamily

from go_runner_output import die_of_broken_pipes, log, logrus_line, start_ticker

die_of_broken_pipes()  # first of all: a runner whose output is gone dies of it, as Go's does

port, jobs, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
record = sys.argv[4] if len(sys.argv) > 4 else None


def note(line):
    if record:
        with open(record, "a") as f:
            f.write(line + "\n")


note("start %d" % os.getpid())
log("info", "Starting multi-runner from config.toml...", builds=0)
SCRAPES_PER_COUNT = 3
RUNNER = "abc123"


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
process_state = Gauge("gitlab_runner_process_state_info",
                      "This metric provides info about the current state of the GitLab Runner "
                      "process", ["state"], registry=registry)


def set_state(state):
    """process_state.Tracker.setState: reset, then one series at 1."""
    for name in ("starting", "running", "graceful-shutdown", "forceful-shutdown"):
        try:
            process_state.remove(name)
        except KeyError:
            pass
    process_state.labels(state).set(1)


set_state("starting")
start_http_server(port, addr="127.0.0.1", registry=registry)

draining = threading.Event()
aborted = threading.Event()
release_file = os.environ.get("FAKE_RUNNER_RELEASE_FILE")


def on_signal(number, _frame):
    if aborted.is_set():
        note("exit 1")  # a stop signal during the forceful shutdown: exit at once
        os._exit(1)
    if number == signal.SIGQUIT:
        log("warning", "Requested quit, waiting for builds to finish", builds=series.count)
        if not draining.is_set():
            set_state("graceful-shutdown")
        draining.set()
    else:
        log("warning", "Requested service stop: %s" % signal.Signals(number).name,
            builds=series.count)
        set_state("forceful-shutdown")
        aborted.set()


def periodic_lines():
    """What the ticker writes: multi.go's debug line per check interval on stderr, and the
    fake's own line on stdout."""
    return [(2, logrus_line("debug", "Feeding runners to channel", builds=series.count)),
            (1, "checking for jobs... %d of %d running" % (series.count, jobs))]


for stop_signal in (signal.SIGQUIT, signal.SIGTERM, signal.SIGINT):
    signal.signal(stop_signal, on_signal)
set_state("running")
log("info", "Configuration loaded", builds=0)
for job in range(1, jobs + 1):
    log("info", "Checking for jobs... received", builds=job, job=job, runner=RUNNER)
print("ready", flush=True)
start_ticker(periodic_lines)

while not draining.is_set() and not aborted.is_set():
    time.sleep(0.02)
began = time.monotonic()
left = jobs
while left > 0 and not aborted.is_set():
    finished = sum(1 for n in range(jobs) if time.monotonic() - began >= seconds + 0.5 * n)
    if finished == jobs and release_file and not os.path.exists(release_file):
        finished = jobs - 1  # the last job is held until the test lets it finish
    if jobs - finished < left:
        log("info", "Job succeeded", builds=left - 1, job=jobs - left + 1, runner=RUNNER,
            duration_s="%.1f" % (time.monotonic() - began))
        left -= 1  # one at a time: each count is seen
        series.set_after_seen(left, unless=aborted)
    time.sleep(0.02)
if not aborted.is_set():
    series.set_after_seen(0, unless=aborted)
    time.sleep(0.5)  # gitlab-runner, too, takes a moment between its last job and its exit
code = 1 if aborted.is_set() else 0
if aborted.is_set():
    for job in range(jobs - left + 1, jobs + 1):
        log("error", "Job failed: aborted: terminated", builds=left, job=job, runner=RUNNER)
log("info", "All workers stopped. Can exit now", builds=0)
note("exit %d" % code)
os._exit(code)  # no interpreter shutdown, during which a late signal would kill it instead

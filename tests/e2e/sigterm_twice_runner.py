#!/usr/bin/python3
"""A generic runner for runwarden's end-to-end tests that reads a first SIGTERM as "finish
the job" and a second as "abort it", as many job runners do, and that, like any program
still loading, has no SIGTERM handler for a moment after it starts.

Usage: sigterm_twice_runner.py RECORD HANDLERS_AFTER_S JOB_S. Appends to RECORD: "start PID"
at once, "ready" once its handler is in place (HANDLERS_AFTER_S later; a SIGTERM before
that kills it, exit status 143 as seen by its parent), "term N" for each SIGTERM, and
"exit CODE" at the end: 0 when its job finished (JOB_S after the first SIGTERM), 1 when a
second SIGTERM aborted it.

It writes as a Go runner does (go_runner_output.py, checked against gitlab-runner's
commands/multi.go, which logs with logrus to stderr, and Go's os/signal documentation on
SIGPIPE): logrus text lines on stderr when it starts, when its job starts and finishes, when
a shutdown begins and before it exits, and every 0.2 s a line on stderr and one on stdout.
SIGPIPE has its default action, as in a Go program: when nobody reads its output any more,
the next write kills it with SIGPIPE.
"""

import os
import signal
import sys
import time

from go_runner_output import die_of_broken_pipes, log, logrus_line, start_ticker

die_of_broken_pipes()  # first of all: a runner whose output is gone dies of it, as Go's does
record, handlers_after_s, job_s = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])


def note(line):
    with open(record, "a") as f:
        f.write(line + "\n")


note("start %d" % os.getpid())
log("info", "Starting runner", pid=os.getpid())
log("info", "Job started", job=1)
terms = 0
finish_at = None


def periodic_lines():
    state = "running" if finish_at is None else "finishing"
    return [(2, logrus_line("debug", "Job in progress", job=1, state=state)),
            (1, "job 1 %s" % state)]


start_ticker(periodic_lines)
time.sleep(handlers_after_s)


def on_term(signum, frame):
    global terms, finish_at
    terms += 1
    note("term %d" % terms)
    if terms == 1:
        log("warning", "Requested stop, waiting for the job to finish", job=1)
        finish_at = time.monotonic() + job_s
    else:
        log("error", "Job failed: aborted: terminated", job=1)
        note("exit 1")
        os._exit(1)


signal.signal(signal.SIGTERM, on_term)
note("ready")
while finish_at is None or time.monotonic() < finish_at:
    time.sleep(0.02)
log("info", "Job succeeded", job=1)
note("exit 0")
os._exit(0)  # no interpreter shutdown while the ticker thread may be writing

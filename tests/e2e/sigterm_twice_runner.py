#!/usr/bin/python3
"""A generic runner for runwarden's end-to-end tests that reads a first SIGTERM as "finish
the job" and a second as "abort it", as many job runners do, and that, like any program
still loading, has no SIGTERM handler for a moment after it starts.

Usage: sigterm_twice_runner.py RECORD HANDLERS_AFTER_S JOB_S. Appends to RECORD: "start PID"
at once, "ready" once its handler is in place (HANDLERS_AFTER_S later; a SIGTERM before
that kills it, exit status 143 as seen by its parent), "term N" for each SIGTERM, and
"exit CODE" at the end: 0 when its job finished (JOB_S after the first SIGTERM), 1 when a
second SIGTERM aborted it.
"""

import os
import signal
import sys
import time

record, handlers_after_s, job_s = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])


def note(line):
    with open(record, "a") as f:
        f.write(line + "\n")


note("start %d" % os.getpid())
time.sleep(handlers_after_s)
terms = 0
finish_at = None


def on_term(signum, frame):
    global terms, finish_at
    terms += 1
    note("term %d" % terms)
    if terms == 1:
        finish_at = time.monotonic() + job_s
    else:
        note("exit 1")
        os._exit(1)


signal.signal(signal.SIGTERM, on_term)
note("ready")
while finish_at is None or time.monotonic() < finish_at:
    time.sleep(0.02)
note("exit 0")
sys.exit(0)

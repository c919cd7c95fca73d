#!/usr/bin/python3
"""A runner that writes to its stdout and stderr, and dies of SIGPIPE as a Go program does.

gitlab-runner is a Go program that logs with logrus to stderr and asks to be notified of
SIGQUIT, SIGTERM, SIGINT and SIGHUP only (commands/multi.go). Go's os/signal documentation:
without Notify for SIGPIPE, "a write to a broken pipe on file descriptors 1 or 2 ... will
cause the program to exit with a SIGPIPE signal". Python ignores SIGPIPE by default; this
runner puts it back to its default, so a write to a pipe nobody reads kills it, as it kills
gitlab-runner.

Usage: go_like_runner.py RECORD JOB_SECONDS [BURST_LINES]. One job starts at once. Every
50 ms a line goes to stdout and one to stderr (go_runner_output.py: logrus's format, one
write each). SIGQUIT (graceful, as gitlab-runner's) lets
the job finish JOB_SECONDS later, with a line every 50 ms meanwhile, then exits 0; SIGTERM or
SIGINT aborts it and exits 1. BURST_LINES lines of 100 bytes are written at start, to fill a
stalled reader's pipe. RECORD gets one line per event ("start PID", "signal QUIT", "job
finished", "exit 0"), written before the event's log line, so a test sees what happened even
when the runner died at its next write.
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import go_runner_output as go  # noqa: E402

record, job_seconds = sys.argv[1], float(sys.argv[2])
burst = int(sys.argv[3]) if len(sys.argv) > 3 else 0
go.die_of_broken_pipes()


def note(event):
    with open(record, "a") as f:
        f.write(event + "\n")


finish_at = None


def on_quit(*_):
    global finish_at
    note("signal QUIT")
    if finish_at is None:
        finish_at = time.monotonic() + job_seconds


def on_stop(number, _):
    note("signal " + signal.Signals(number).name[3:])
    note("job aborted")
    note("exit 1")
    os._exit(1)


signal.signal(signal.SIGQUIT, on_quit)
signal.signal(signal.SIGTERM, on_stop)
signal.signal(signal.SIGINT, on_stop)
signal.signal(signal.SIGHUP, lambda *_: note("signal HUP"))

note("start %d" % os.getpid())
go.log("info", "Starting multi-runner from config.toml...", builds=0)
for i in range(burst):
    go.write_line(1, "burst line %d %s" % (i, "x" * 80))
note("job started")
go.log("info", "Checking for jobs... received", job=1)
tick = 0
while finish_at is None or time.monotonic() < finish_at:
    tick += 1
    go.write_line(1, "job=1 still running, tick %d" % tick)
    go.log("debug", "Feeding runners to channel" if finish_at is None
           else "Graceful shutdown: waiting for job=1 to finish", builds=1)
    time.sleep(0.05)
note("job finished")
go.log("info", "Job succeeded", job=1)
note("exit 0")
go.log("info", "All workers stopped. Can exit now", builds=0)
sys.exit(0)

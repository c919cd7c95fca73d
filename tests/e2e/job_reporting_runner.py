#!/usr/bin/python3
"""A generic runner that reports its one job with `runwarden ctl job start|end`, as a GitHub
runner's job hooks would (ACTIONS_RUNNER_HOOK_JOB_STARTED / _COMPLETED run a script before
and after each job). It has no metrics.

  job_reporting_runner.py RUNWARDEN SOCKET RECORD FINISH_FILE JOB_ID

It reports JOB_ID started, writes "started" to RECORD, and runs the job until FINISH_FILE
exists. SIGTERM (the generic kind's graceful signal) means: take no new job, finish this
one. Once the job is done it reports JOB_ID ended and, if SIGTERM came, exits 0 (else it
waits for SIGTERM, as an idle runner does). Every step is appended to RECORD."""

import os
import signal
import sys
import time

from ctl_job_report import report_job

runwarden, socket, record, finish_file, job_id = sys.argv[1:6]
terminated = False


def note(line):
    with open(record, "a") as f:
        f.write(line + "\n")


def on_term(_number, _frame):
    global terminated
    terminated = True
    note("term")


def ctl_job(event):
    done = report_job(runwarden, socket, event, job_id)
    note("job %s rc=%d %s" % (event, done.returncode, done.stderr.strip()))


signal.signal(signal.SIGTERM, on_term)
ctl_job("start")
note("started")
while not os.path.exists(finish_file):
    time.sleep(0.02)
ctl_job("end")
while not terminated:
    time.sleep(0.02)
note("exit 0")
sys.exit(0)

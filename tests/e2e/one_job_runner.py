#!/usr/bin/python3
"""A generic runner for the retirement tests (issue 33), reporting its jobs with `runwarden
ctl job start|end` as a GitHub runner's job hooks would. It has no metrics.

  one_job_runner.py RUNWARDEN SOCKET RECORD MODE

MODE:
  one    take one job (job-1), finish it, exit 0: GitHub's --ephemeral, gitlab-runner's
         run-single --max-builds 1
  crash  exit 3 at once, before any job: a runner that cannot start
  jobs   take job-1, job-2, ... one after the other (each 0.3 s) until SIGTERM, the generic
         kind's graceful signal: then finish the job under way and exit 0
  hold   take job-1 and finish it, then stay up until SIGTERM (exit 0)
  idle   take no job, stay up until SIGTERM (exit 0): a job cancelled before pickup
Every step is appended to RECORD: "up PID" first, then "job-N start rc=..",
"job-N end rc=..", "term", "exit N"."""

import os
import signal
import sys
import time

from ctl_job_report import report_job

runwarden, socket, record, mode = sys.argv[1:5]
terminated = False
JOB_S = 0.3


def note(line):
    with open(record, "a") as f:
        f.write(line + "\n")


def on_term(_number, _frame):
    global terminated
    terminated = True
    note("term")


def ctl_job(event, job_id):
    done = report_job(runwarden, socket, event, job_id)
    note("%s %s rc=%d" % (job_id, event, done.returncode))


def job(number):
    name = "job-%d" % number
    ctl_job("start", name)
    time.sleep(JOB_S)
    ctl_job("end", name)


signal.signal(signal.SIGTERM, on_term)
note("up %d" % os.getpid())
if mode == "crash":
    note("exit 3")
    sys.exit(3)
if mode == "one":
    job(1)
    note("exit 0")
    sys.exit(0)
if mode == "idle":
    while not terminated:
        time.sleep(0.02)
    note("exit 0")
    sys.exit(0)
number = 0
while not terminated:
    if mode == "jobs" or number == 0:
        number += 1
        job(number)
    else:
        time.sleep(0.02)
note("exit 0")
sys.exit(0)

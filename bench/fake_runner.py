#!/usr/bin/python3
"""A tiny runner for the whole-process measurements: it only notes when things happen.

Usage: fake_runner.py RECORD [--hold]. Appends to RECORD one line per event, "NAME VALUE",
with time.monotonic() (CLOCK_MONOTONIC, the harness's clock too) taken as the event
happens: "pid N" and "ready T" at start; "quit T" as SIGQUIT (gitlab-runner's graceful
signal) arrives; "exit T" right before exiting 0. It exits at SIGQUIT, or with --hold at
the SIGUSR1 that follows it, so the harness can choose the moment of the exit.
"""

import os
import signal
import sys
import time

record = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
hold = "--hold" in sys.argv[2:]


def note(name, value):
    os.write(record, b"%s %s\n" % (name.encode(), repr(value).encode()))


def leave(*_):
    note("exit", time.monotonic())
    os._exit(0)


def on_quit(*_):
    note("quit", time.monotonic())
    if not hold:
        leave()


signal.signal(signal.SIGQUIT, on_quit)
signal.signal(signal.SIGUSR1, leave)
note("pid", os.getpid())
note("ready", time.monotonic())
while True:
    signal.pause()

"""How a Go runner writes, for the fake runners of runwarden's tests: log lines on stderr in
logrus's text format, a periodic line while it runs, and death by SIGPIPE when a pipe it
writes to on fd 1 or 2 has no reader left.

Checked against: gitlab-runner's commands/multi.go, which logs through logrus (default
output: stderr) with the "builds" field on every line ("Starting multi-runner from ...",
"Configuration loaded", "Feeding runners to channel" at debug level once per check
interval, "Requested quit, waiting for builds to finish", "Requested service stop: ...",
"All workers stopped. Can exit now"); logrus's TextFormatter without a terminal
(time="RFC 3339" level=... msg="..." then the fields sorted by key); and Go's os/signal
documentation, "SIGPIPE": a write to a broken pipe on file descriptor 1 or 2 makes a Go
program exit with SIGPIPE. Python ignores SIGPIPE (its writes raise BrokenPipeError
instead), so a fake restores the default action first: then a write to a broken pipe kills
it with SIGPIPE, as it would kill gitlab-runner.

Every line is one os.write of a few hundred bytes at most: a write to a pipe of at most
PIPE_BUF bytes is atomic, needs no lock (a signal handler may write while the main thread
is writing) and leaves nothing buffered to flush.
"""

import os
import re
import signal
import threading
import time

TICK_S = 0.2  # how often the periodic line is written: a broken pipe is met within it
_BARE = re.compile(r"^[A-Za-z0-9\-._/@^+]+$")  # logrus quotes a value with anything else


def die_of_broken_pipes():
    """A Go program's SIGPIPE rule for its own output: the default action, not Python's."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def _value(text):
    text = str(text)
    return text if _BARE.match(text) else '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def logrus_line(level, message, **fields):
    """One line as logrus's TextFormatter writes it when stderr is not a terminal."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    parts = ["time=%s" % _value(stamp), "level=%s" % level, "msg=%s" % _value(message)]
    parts += ["%s=%s" % (key, _value(fields[key])) for key in sorted(fields)]
    return " ".join(parts)


def write_line(fd, line):
    """Writes one whole line; a broken pipe kills the process (die_of_broken_pipes)."""
    data = (line + "\n").encode()
    while data:
        try:
            data = data[os.write(fd, data):]
        except InterruptedError:
            continue


def log(level, message, **fields):
    write_line(2, logrus_line(level, message, **fields))


def start_ticker(lines):
    """Every TICK_S, writes the (fd, line) pairs `lines()` returns, until the process ends.
    A daemon thread: it never holds the process's exit back."""

    def tick():
        while True:
            for fd, line in lines():
                write_line(fd, line)
            time.sleep(TICK_S)

    threading.Thread(target=tick, daemon=True).start()

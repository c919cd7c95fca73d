#!/usr/bin/python3
"""tests/aws/fake_autoscaling.py with the arrival time of each request, for the completion
measurement; the fake itself is unchanged (same scenario argument, commands and output).

Each request line the fake prints ({"method", "action", ...}) gets "received":
time.monotonic() (CLOCK_MONOTONIC) taken as the fake's handler starts, once the request
line and headers are read and before the body is read, the SigV4 signature is checked with
botocore (milliseconds in Python) and the answer is built. So the figure does not include
the fake's own work; it does include the kernel's delivery of the request and Python's
accept and header parsing in a fresh thread (a fraction of a millisecond, more on a loaded
machine).
"""

import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "aws"))
import fake_autoscaling  # noqa: E402 - found through the path above

arrival = threading.local()  # one handler thread per connection
print_line = fake_autoscaling.emit


class TimedHandler(fake_autoscaling.Handler):
    def do_POST(self):
        arrival.at = time.monotonic()
        super().do_POST()


def emit(record):
    if "action" in record:
        record = dict(record, received=arrival.at)
    print_line(record)


fake_autoscaling.Handler = TimedHandler  # looked up by fake_autoscaling.main()
fake_autoscaling.emit = emit

if __name__ == "__main__":
    fake_autoscaling.main()

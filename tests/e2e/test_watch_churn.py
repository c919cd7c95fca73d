#!/usr/bin/python3
"""Watch streams opened and cancelled over and over must cost nothing once they end.

Each Watch stream is a subscriber actor that monitors the warden. CAF 0.17 keeps a monitor
in the warden until the warden ends unless the subscriber demonitors, and that kept the
whole ended actor's memory: about 1.3 KB a stream, 40 rounds of 1,008 streams took the
warden from 25 to 162 MB (issue 31). This test runs ROUNDS rounds of STREAMS streams (each
opened, read once, cancelled) against a runwarden that supervises `sleep`, and reads the
warden's VmRSS after each. The first WARMUP rounds fill gRPC's and the allocator's pools;
after them, RSS must stay flat: the lowest of the last SAMPLES readings may exceed the
highest of the last SAMPLES warm-up readings by GROWTH_MAX_KB at most. The leak adds about
MEASURED * STREAMS * 1.3 KB (over 30 MB); the noise between rounds seen on a loaded 2-core
machine is under 10 MB, so the bound sits between. RSS under AddressSanitizer (its
quarantine keeps freed memory) says nothing, so CMake runs this on release builds only.
  RUNWARDEN_BINARY=build/runwarden RUNWARDEN_PROTO_DIR=messages \\
  /usr/bin/python3 tests/e2e/test_watch_churn.py
"""

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import grpc

from drain_world import RUNWARDEN
from keeper_family import resident_kb, warden_of

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import test_control_api as control_api  # noqa: E402  (its stub generation, not its tests)

STREAMS = 1000  # within watch_streams_max (1,008)
CHANNELS = 8
WARMUP = 6
MEASURED = 24
ROUNDS = WARMUP + MEASURED
SAMPLES = 3
GROWTH_MAX_KB = 14 * 1024
SETTLE_S = 0.3  # after a round's cancels, for the server to end the calls
START_S = 30
CALL_S = 30


async def churn(target, warden_pid):
    """The warden's VmRSS after each round."""
    v1 = control_api.pb["warden"]
    channels = [grpc.aio.insecure_channel(target) for _ in range(CHANNELS)]
    stubs = [control_api.pb["warden_grpc"].WardenStub(channel) for channel in channels]
    readings = []
    try:
        for _ in range(ROUNDS):
            calls = [stubs[i % CHANNELS].Watch(v1.WatchRequest(), timeout=CALL_S)
                     for i in range(STREAMS)]
            for call in calls:
                first = await call.read()
                assert first is not grpc.aio.EOF, "a Watch stream ended before its first status"
            for call in calls:
                call.cancel()
            await asyncio.sleep(SETTLE_S)
            readings.append(resident_kb(warden_pid))
    finally:
        for channel in channels:
            await channel.close(grace=None)
    return readings


class WatchChurnTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="runwarden-churn-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.socket = os.path.join(self.dir, "control.sock")
        self.log_path = os.path.join(self.dir, "runwarden.log")
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [RUNWARDEN, "run", "--kind", "generic", "--grpc-listen", "unix://" + self.socket,
                 "--http-listen", "none", "--state-dir", os.path.join(self.dir, "state"),
                 "--", "/bin/sleep", "3600"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.addCleanup(self.stop)
        deadline = time.monotonic() + START_S
        while "control API listening" not in self.log():
            self.assertIsNone(self.proc.poll(), self.log())
            self.assertLess(time.monotonic(), deadline, self.log())
            time.sleep(0.05)

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=START_S)

    def test_ended_watch_streams_leave_no_memory_behind(self):
        warden = warden_of(self.proc.pid)
        self.assertTrue(warden, "runwarden has no warden")
        before_kb = resident_kb(warden)
        readings = asyncio.run(churn("unix:" + self.socket, warden))
        baseline_kb = max(readings[WARMUP - SAMPLES:WARMUP])
        final_kb = min(readings[-SAMPLES:])
        print("warden VmRSS: %d kB at start, %d kB after warm-up (highest of %d), %d kB after "
              "%d more rounds of %d streams (lowest of %d); per round: %s"
              % (before_kb, baseline_kb, SAMPLES, final_kb, MEASURED, STREAMS, SAMPLES,
                 " ".join(str(kb) for kb in readings)))
        self.assertLess(final_kb - baseline_kb, GROWTH_MAX_KB,
                        "Watch streams that ended left memory behind")


if __name__ == "__main__":
    if not RUNWARDEN or not control_api.PROTO_DIR:
        sys.exit("set RUNWARDEN_BINARY and RUNWARDEN_PROTO_DIR")
    stub_dir = tempfile.mkdtemp(prefix="runwarden-churn-stubs-")
    try:
        control_api.generate_stubs(stub_dir)
        outcome = unittest.main(verbosity=2, exit=False).result
    finally:
        shutil.rmtree(stub_dir, ignore_errors=True)
    sys.exit(0 if outcome.wasSuccessful() else 1)

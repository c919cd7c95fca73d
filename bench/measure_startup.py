#!/usr/bin/python3
"""Start-up time (issue 22): from the exec of `runwarden run` until its gRPC server answers
on the unix socket. Target: <= 25 ms at the median (issue 9's was 50 ms).

Each run starts a fresh runwarden (own state directory, on disk: the journal is created and
fsync'd) with the idle measurement's kind of config, aws.provider = "aws" against the fake
IMDS, supervising bench/fake_runner.py. The harness creates a gRPC channel (grpcio; idle,
it connects at its first call), takes time.monotonic() and starts runwarden (Python's fork
and exec are inside the figure, about a millisecond). It tries to connect to the socket
every half millisecond (a plain connect(2): grpcio's own reconnect backoff would add about
70 ms) and, once one succeeds, calls grpc.health.v1.Health/Check with an empty request on
the channel. The figure ends at the SERVING answer, compared as raw bytes so no generated
health stubs are needed; the moment the socket first accepted is reported too
(accepting_p50_ms). runwarden is then drained with SIGTERM.

The short commands an operator or a preStop hook runs are timed too, exec to exit, the same
number of runs each (target <= 10 ms at the median): `runwarden version` (loading the
shared libraries, their initialisers, printing one line: the floor any command pays) and
`runwarden ctl status` against one runwarden left running (the client's gRPC channel, one
Status call, the printed answer).

    /usr/bin/python3 bench/measure_startup.py [--build DIR] [--quick] [--out FILE]
"""

import socket
import subprocess
import time

import grpc

from perf_world import (Warden, arguments, aws_config, aws_environment, distribution,
                        load_average, spawn, start_imds, wait_until, write_result)

HEALTH_CHECK = "/grpc.health.v1.Health/Check"
SERVING = b"\x08\x01"  # HealthCheckResponse{status: SERVING}


def accepting(path):
    with socket.socket(socket.AF_UNIX) as probe:
        try:
            probe.connect(path)
            return True
        except OSError:
            return False


def trial(binary, imds):
    """(seconds until the health check's answer, seconds until the socket accepted)."""
    warden = Warden(binary, aws_config(imds.port, "1s", complete_hooks=False),
                    env=aws_environment())
    with grpc.insecure_channel("unix:" + warden.socket) as channel:
        check = channel.unary_unary(HEALTH_CHECK)
        started = time.monotonic()
        warden.start()
        wait_until(lambda: accepting(warden.socket), "the control socket", step=0.0005)
        accepted = time.monotonic()
        answer = check(b"", timeout=30)
        answered = time.monotonic()
    warden.wait_for_event("ready")  # a SIGQUIT before its handler is set would kill it
    code = warden.stop()
    if answer != SERVING or code != 0:
        raise RuntimeError("health %r, runwarden exited %d" % (answer, code))
    return answered - started, accepted - started


def command_run(argv):
    """Seconds from the exec of a short runwarden command to its exit (which must be 0)."""
    started = time.monotonic()
    command = spawn(argv, stdout=subprocess.DEVNULL)
    code = command.wait()
    ended = time.monotonic()
    if code != 0:
        raise RuntimeError("%s exited %d" % (" ".join(argv), code))
    return ended - started


def ctl_status_runs(binary, imds, runs):
    """`runwarden ctl status` timed against one runwarden, started and drained here."""
    warden = Warden(binary, aws_config(imds.port, "1s", complete_hooks=False),
                    env=aws_environment())
    warden.start()
    try:
        warden.wait_for_event("ready")
        argv = [binary, "ctl", "--socket", warden.socket, "status"]
        return [command_run(argv) for _ in range(runs)]
    finally:
        code = warden.stop()
        if code != 0:
            raise RuntimeError("runwarden exited %d after the ctl runs" % code)


def main():
    args = arguments(__doc__, runs=(30, 3))
    imds = start_imds()
    try:
        load_before = load_average()
        answers, accepts = zip(*(trial(args.binary, imds) for _ in range(args.runs)))
        result = distribution(answers)
        versions = [command_run([args.binary, "version"]) for _ in range(args.runs)]
        statuses = ctl_status_runs(args.binary, imds, args.runs)
        result.update(accepting_p50_ms=distribution(accepts)["p50_ms"],
                      version_p50_ms=distribution(versions)["p50_ms"],
                      ctl_status_p50_ms=distribution(statuses)["p50_ms"], target_ms=25,
                      command_target_ms=10, load_before=load_before,
                      load_after=load_average())
        write_result(args, "startup", result)
    finally:
        imds.close()


if __name__ == "__main__":
    main()

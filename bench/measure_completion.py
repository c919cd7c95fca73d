#!/usr/bin/python3
"""Completion time (issue 9): from the runner's exit until CompleteLifecycleAction reaches
the Auto Scaling endpoint, with no unregistration configured. Target: p99 <= 10 ms.

One fake IMDS and one fake Auto Scaling endpoint (bench/timed_autoscaling.py: the tests'
fake_autoscaling.py, SigV4 checked by botocore, with each request's arrival time) serve
every trial: a group with a terminating hook (heartbeat timeout an hour, so no heartbeats)
and fake_imds's instance, i-0fake0imds0test00 in eu-west-1. Each trial runs a fresh
runwarden supervising bench/fake_runner.py --hold, polling every 200 ms (the poll interval
is not part of this figure). Once the watcher has read the identity document, the instance
goes to Terminating:Wait and the metadata to Terminated; runwarden drains (SIGQUIT), looks
the hook up and sends its first heartbeat. When DescribeLifecycleHooks has been answered and
a settling pause has passed, the harness sends the runner SIGUSR1: it notes time.monotonic()
and exits 0. The figure is the CompleteLifecycleAction's arrival time minus that note.

The runner's exit is journaled (fdatasync) before the completion is sent, so the disk is in
the figure. Trials alternate between a state directory on disk (/var/tmp: the figure) and
one on tmpfs (/dev/shm: the same path without the disk's flush), side by side.

    /usr/bin/python3 bench/measure_completion.py [--build DIR] [--quick] [--out FILE]
"""

import os
import signal
import time

from perf_world import (DISK_DIR, INSTANCE_ID, Warden, arguments, aws_config,
                        aws_environment, distribution, filesystem, load_average, new_lines,
                        start_imds, start_timed_autoscaling, wait_until, write_result)

IDENTITY_PAGE = "/latest/dynamic/instance-identity/document"
TMPFS_DIR = "/dev/shm"
PARENTS = (DISK_DIR, TMPFS_DIR)
SETTLE_S = 0.2  # after the hook lookup, so the exit finds runwarden waiting


def trial(binary, imds, autoscaling, parent):
    """Seconds from the runner's exit to CompleteLifecycleAction's arrival."""
    imds.command(lifecycle_state=None)
    warden = Warden(binary, aws_config(imds.port, "200ms", complete_hooks=True),
                    env=aws_environment(autoscaling.port), hold=True, parent=parent)
    since_imds, since_calls = len(imds.lines), len(autoscaling.lines)
    warden.start()
    warden.wait_for_event("ready")
    wait_until(lambda: new_lines(imds, since_imds, path=IDENTITY_PAGE, status=200),
               "the watcher's identity document")
    autoscaling.command(terminate=INSTANCE_ID)
    imds.command(lifecycle_state="Terminated")
    warden.wait_for_event("quit")
    wait_until(lambda: new_lines(autoscaling, since_calls, action="DescribeLifecycleHooks",
                                 status=200), "the hook lookup")
    time.sleep(SETTLE_S)
    os.kill(warden.runner_events()["pid"], signal.SIGUSR1)
    exited = warden.wait_for_event("exit")
    completion = wait_until(lambda: new_lines(autoscaling, since_calls,
                                              action="CompleteLifecycleAction"),
                            "CompleteLifecycleAction")[0]
    code = warden.stop()
    if code != 0 or completion["status"] != 200 or completion["signature"] != "valid":
        raise RuntimeError("runwarden exited %d, completion %s; its directory: %s"
                           % (code, completion["status"], warden.dir))
    return completion["received"] - exited


def main():
    args = arguments(__doc__, trials=(50, 3))
    imds, autoscaling = start_imds(), start_timed_autoscaling()
    try:
        load_before = load_average()
        latencies = {parent: [] for parent in PARENTS}
        for _ in range(args.trials):
            for parent, times in latencies.items():
                times.append(trial(args.binary, imds, autoscaling, parent))
        result = distribution(latencies[DISK_DIR])
        result.update(target_p99_ms=10, filesystem=filesystem(DISK_DIR),
                      tmpfs=dict(distribution(latencies[TMPFS_DIR]),
                                 filesystem=filesystem(TMPFS_DIR)),
                      load_before=load_before, load_after=load_average())
        write_result(args, "completion", result)
    finally:
        imds.close()
        autoscaling.close()


if __name__ == "__main__":
    main()

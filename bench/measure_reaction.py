#!/usr/bin/python3
"""Reaction time (issue 9): from the moment the instance metadata's Auto Scaling target
lifecycle state turns Terminated until the runner receives its graceful signal (SIGQUIT).
Target: p99 <= the poll interval + 20 ms.

One fake IMDS (bench/one_write_imds.py: tests/aws/fake_imds.py answering in one write)
serves every trial of a run; each trial runs a fresh runwarden
(own state directory) supervising bench/fake_runner.py, with aws.provider = "aws" and
complete_lifecycle_hooks = false (no Auto Scaling endpoint needed). Once runwarden's watcher
has polled and the runner's start grace is over (drain.start_grace, 1 s from the runner's
start: a drain that comes sooner holds the graceful signal until then, by design, and
would be measured instead of the reaction), the harness waits a random part of a poll
interval (so the flip falls anywhere in the poll cycle), takes time.monotonic() and only then sends the fake IMDS the command
that flips the page. The runner notes time.monotonic() as SIGQUIT arrives. The flip happens
between the send and the fake's ack, so the figure is an upper bound by at most the ack's
round trip, which is reported too (ack_p50_ms). The figure splits in two: the wait for the
next poll (up to a poll interval, by design) and runwarden's own part, from the moment the
fake IMDS answered "Terminated" (its request line, printed just before the answer, as the
harness's reader thread takes it) to SIGQUIT: after_answer_p50_ms and after_answer_p99_ms.
A third run polls every 200 ms against the tests' own fake_imds.py, which writes headers
and body apart: on runwarden's kept-alive connection that costs about 40 ms on many
requests (Nagle's algorithm against a delayed ACK; see bench/one_write_imds.py).

    /usr/bin/python3 bench/measure_reaction.py [--build DIR] [--quick] [--out FILE]
"""

import random
import time

from perf_world import (Warden, arguments, aws_config, aws_environment, distribution,
                        load_average, new_lines, start_imds, wait_until, write_result)

LIFECYCLE_PAGE = "/latest/meta-data/autoscaling/target-lifecycle-state"
RUNS = ((1000, True), (200, True), (200, False))  # poll ms, one_write_imds.py or not
START_GRACE_S = 1.0  # drain.start_grace's default, counted from the runner's start


def trial(binary, imds, poll_ms):
    """Seconds from the flip's send to SIGQUIT at the runner, from the send to the ack and
    from the Terminated answer to SIGQUIT."""
    imds.command(lifecycle_state=None)
    warden = Warden(binary, aws_config(imds.port, "%dms" % poll_ms, complete_hooks=False),
                    env=aws_environment())
    since = len(imds.lines)
    warden.start()
    ready = warden.wait_for_event("ready")
    wait_until(lambda: new_lines(imds, since, path=LIFECYCLE_PAGE), "the watcher's first poll")
    # The runner noted "ready" after its start, so this is past the grace's end.
    time.sleep(max(0.0, ready + START_GRACE_S - time.monotonic()))
    time.sleep(random.uniform(0, poll_ms / 1000))
    flipped = len(imds.lines)
    sent = time.monotonic()
    imds.command(lifecycle_state="Terminated")
    acked = time.monotonic()
    quit_at = warden.wait_for_event("quit")
    answered = new_lines(imds, flipped, path=LIFECYCLE_PAGE, status=200)[0]["seen"]
    code = warden.stop()
    if code != 0:
        raise RuntimeError("runwarden exited %d; its directory: %s" % (code, warden.dir))
    return quit_at - sent, acked - sent, quit_at - answered


def measure(binary, poll_ms, one_write, trials):
    imds = start_imds(one_write)
    try:
        latencies, acks, after_answer = zip(*(trial(binary, imds, poll_ms)
                                              for _ in range(trials)))
    finally:
        imds.close()
    summary = distribution(latencies)
    after = distribution(after_answer)
    summary.update(poll_interval_ms=poll_ms,
                   imds="one_write_imds.py" if one_write else "fake_imds.py",
                   target_p99_ms=poll_ms + 20,
                   ack_p50_ms=distribution(acks)["p50_ms"],
                   after_answer_p50_ms=after["p50_ms"], after_answer_p99_ms=after["p99_ms"])
    return summary


def main():
    args = arguments(__doc__, trials=(50, 3))
    load_before = load_average()
    runs = [measure(args.binary, poll_ms, one_write, args.trials) for poll_ms, one_write in RUNS]
    write_result(args, "reaction", {"runs": runs, "load_before": load_before,
                                    "load_after": load_average()})


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Seeded kill -9 trials: the warden killed at random moments of real drains, each time
started again by the keeper and recovering from its journal, and the drain's promise checked
from the fakes' own records.

`runwarden run` is a keeper, the runner's parent, and a warden, the keeper's child that does
all else (src/keeper/keeper.hpp). The fault is kill -9 of the warden (keeper_family.py finds
it): the keeper starts a new one by itself, which adopts the runner through the keeper. The
test never starts a second runwarden; killing the keeper is a machine crash, out of scope.
The runners write to stdout and stderr as gitlab-runner does and die of SIGPIPE when nobody
reads them (go_runner_output.py), and runwarden runs with the default `--output log`: a
runner that lost its pipes with the warden would die, and show as an aborted job.

A trial's seed picks everything: the kind of drain (seed % 3, so any run of three seeds
covers all three), its faults and job lengths, one or two kill moments, and for each the
observed point it waits for plus a random delay after it. A kill moment is never a bare
sleep: the trial waits until the point shows in a lasting record (a status of the Watch
stream, a request in a fake's log), then waits the random delay and sends SIGKILL to the
warden of the moment; on a slow machine the point comes later and the kill with it. After a
kill the trial waits for the keeper's new warden (a new child pid) and watches it. The kinds:

- gitlab: fake_gitlab_runner.py with two jobs, drained with SIGTERM, then unregistered from
  the fake GitLab API through 429s (Retry-After), 500s and an answer too slow for the client.
- github: a generic runner (sigterm_twice_runner.py: a second SIGTERM aborts its job) whose
  fake GitHub API answers 422 "still running a job" a few times before it lets it go; the
  runner is unregistered first and only then stopped.
- aws: the fake Auto Scaling group puts the instance into Terminating:Wait and the fake
  metadata service says Terminated; the terminate hook (a short heartbeat timeout) is kept
  alive with heartbeats while the job runs, then completed once the runner is unregistered.

Every trial must end with: the keeper's exit 0, the runner's real end (never 75, "the end
is unknown": the keeper reaps the runner and tells each new warden how it ended), one runner
start and one "exit 0" in the runner's record (no fresh runner, no job aborted), exactly one
successful unregistration and nothing asked after it, and for aws exactly one accepted
CONTINUE and no hook timeout. The drain's SIGTERM is sent to the keeper once and never again:
the keeper keeps a signal until a warden says it has it, so no kill may lose it. A kill that
lands after the drain reached gone (the warden lingering on its way out) must not start a
new life either: no second runner, and the keeper still ends with 0.

  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/kill9_trials.py \\
      --seed 1 --trials 100
A failing trial prints its seed and the command that repeats it alone.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from aws_world import INSTANCE_ID, AwsWorld
from drain_world import FAKE_API, RUNWARDEN, TOKEN, WAIT_S, DrainWorld, StatusWatch
from keeper_family import kill_warden, wait_for_warden

HERE = os.path.dirname(os.path.abspath(__file__))
GENERIC_RUNNER = os.path.join(HERE, "sigterm_twice_runner.py")
GITHUB_TOKEN = "ghp_trialSecretToken0123456789"
KINDS = ("gitlab", "github", "aws")
KILL_DELAY_MAX_S = 0.8
SECOND_KILL_CHANCE = 0.3
HEARTBEAT_TIMEOUT_S = 3.0
POLL_S = 0.02  # how often a lasting record is read again
DRAIN_ENDED = "status shutting_down -> gone"  # runwarden's log, written as it happens
SIGNAL_KEPT_S = 10  # how long a restarted warden may take to show the drain it was asked for


class JsonLines:
    """A fake's JSON lines (after the port line), read as they come, kept for good."""

    def __init__(self, stream):
        self.lines = []
        self._reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._reader.start()

    def _read(self, stream):
        for line in stream:
            if line.strip():
                self.lines.append(json.loads(line))

    def join(self):
        self._reader.join(timeout=10)


def any_status(world, predicate):
    return any(predicate(s) for s in list(world.watch.statuses))


def deletes(calls):
    return [c for c in calls if c.get("method") == "DELETE"]


def unregistration_problems(calls):
    """One real removal (204, not a fault's), and nothing asked after it."""
    removals = [c for c in deletes(calls) if c["status"] == 204 and not c["fault"]]
    if len(removals) != 1:
        return ["%d successful unregistrations: %s" % (len(removals), deletes(calls))]
    if removals[0] is not calls[-1]:
        return ["requests after the removal: %s" % calls[calls.index(removals[0]) + 1:]]
    return []


def runner_problems(record):
    starts = [line for line in record if line.startswith("start")]
    exits = [line for line in record if line.startswith("exit")]
    problems = []
    if len(starts) != 1:
        problems.append("%d runner starts (a fresh runner during the drain): %s"
                        % (len(starts), record))
    if exits != ["exit 0"]:
        problems.append("the runner's job did not finish: %s" % record)
    return problems


class GitlabTrial:
    """A gitlab-runner drained with SIGTERM and unregistered through faults."""

    def __init__(self, rng):
        faults = [rng.choice([{"status": 429, "headers": {"Retry-After": "1"}},
                              {"status": 500}, {"slow": 2.5}])
                  for _ in range(rng.randint(0, 2))]
        self.world = DrainWorld(faults, jobs=2, job_seconds=rng.uniform(0.3, 1.5))
        self.api = JsonLines(self.world.api.stdout)
        self.points = {
            "signalled": lambda: True,
            "draining": lambda: any_status(self.world, lambda s: s["state"] == "shutting_down"),
            "one job left": lambda: any_status(
                self.world, lambda s: s["state"] == "shutting_down" and s.get("jobs_running") == 1),
            "unregistering": lambda: any_status(
                self.world, lambda s: s.get("drain_phase") == "unregistering"),
            "first delete": lambda: len(deletes(self.api.lines)) >= 1,
            "second delete": lambda: len(deletes(self.api.lines)) >= 2,
        }
        self.signalled = True  # the drain's SIGTERM: the keeper must keep it across kills

    def begin(self):
        keeper = self.world.start_warden()
        if self.world.wait_for(lambda s: s.get("jobs_running") == 2) is None:
            raise AssertionError("the runner's jobs never showed in status")
        keeper.send_signal(signal.SIGTERM)
        return keeper

    def problems(self):
        self.world.api.stdin.close()
        self.world.api.wait()
        self.api.join()
        return runner_problems(self.world.runner_record()) + unregistration_problems(self.api.lines)

    def close(self):
        self.world.close()
        shutil.rmtree(self.world.dir, ignore_errors=True)


def signal_kept(world, keeper):
    """Problems when the new warden shows no drain: the keeper lost the SIGTERM it was sent
    (it must keep a signal until a warden says it has it). The trial then asks again, as a
    service manager would, so that it ends and its other checks still run."""
    drained = world.watch.wait_for(lambda s: s.get("state") in ("shutting_down", "gone"),
                                   timeout=SIGNAL_KEPT_S)
    if drained is not None or keeper.poll() is not None:
        return []
    keeper.send_signal(signal.SIGTERM)
    return ["no drain %d s after the warden's restart: the SIGTERM was lost" % SIGNAL_KEPT_S]


class GithubWorld(DrainWorld):
    """DrainWorld for GitHub's runner: the fake GitHub API answering 422 a few times, a
    generic runner with a record, runwarden unregistering before it stops. The watching,
    the records and the clean-up are DrainWorld's."""

    def __init__(self, busy_calls):
        self.dir = tempfile.mkdtemp(prefix="runwarden-trial-gh-")
        scenario = {"github_token": GITHUB_TOKEN,
                    "github_runner": {"id": 77, "name": "box-1", "busy_calls": busy_calls}}
        self.api = subprocess.Popen(["/usr/bin/python3", FAKE_API, json.dumps(scenario)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        port = int(self.api.stdout.readline())
        token_file = os.path.join(self.dir, "github-token")
        with open(token_file, "w") as f:
            f.write(GITHUB_TOKEN + "\n")
        os.chmod(token_file, 0o600)
        self.config = os.path.join(self.dir, "runwarden.toml")
        with open(self.config, "w") as f:
            f.write('[runner]\nkind = "generic"\n\n[unregister]\nkind = "github"\n'
                    'retry_initial = "100ms"\nretry_max = "500ms"\n\n[unregister.github]\n'
                    'api_url = "http://127.0.0.1:%d"\nscope = "repo"\nowner = "acme"\n'
                    'repo = "app"\nrunner_name = "box-1"\ntoken_file = "%s"\n'
                    % (port, token_file))
        self.socket = os.path.join(self.dir, "control.sock")
        self.record = os.path.join(self.dir, "runner-record")
        self.log_path = os.path.join(self.dir, "runwarden.log")
        self.wardens, self.watches, self.watch = [], [], None

    def start_warden(self, job_s):
        with open(self.log_path, "a") as log:
            warden = subprocess.Popen(
                [RUNWARDEN, "run", "--config", self.config, "--grpc-listen",
                 "unix://" + self.socket, "--http-listen", "none",
                 "--state-dir", os.path.join(self.dir, "state"), "--",
                 "/usr/bin/python3", GENERIC_RUNNER, self.record, "0", str(job_s)],
                stdout=log, stderr=subprocess.STDOUT)
        self.wardens.append(warden)
        self.watch = StatusWatch(self.socket, warden)
        self.watches.append(self.watch)
        return warden

    def close(self):
        super().close()
        shutil.rmtree(self.dir, ignore_errors=True)


class GithubTrial:
    """GitHub's runner: unregistered through 422s while busy, stopped after."""

    def __init__(self, rng):
        self.world = GithubWorld(busy_calls=rng.randint(1, 4))
        self.job_s = rng.uniform(0.2, 1.0)
        self.api = JsonLines(self.world.api.stdout)
        self.points = {
            "signalled": lambda: True,
            "unregistering": lambda: any_status(
                self.world, lambda s: s.get("drain_phase") == "unregistering"),
            "first busy answer": lambda: any(c["status"] == 422 for c in self.api.lines),
            "removed": lambda: any(c["status"] == 204 for c in self.api.lines),
            "stopping": lambda: any_status(
                self.world, lambda s: s["state"] == "shutting_down"
                and s.get("drain_phase") != "unregistering"),
        }
        self.signalled = True

    def begin(self):
        keeper = self.world.start_warden(self.job_s)
        if self.world.wait_for(lambda s: s["state"] == "running") is None:
            raise AssertionError("runwarden never said its runner was running")
        keeper.send_signal(signal.SIGTERM)
        return keeper

    def problems(self):
        self.world.api.stdin.close()
        self.world.api.wait()
        self.api.join()
        removals = [c for c in self.api.lines if c["route"] != "github_list"]
        return runner_problems(self.world.runner_record()) + unregistration_problems(removals)

    def close(self):
        self.world.close()


class AwsTrial:
    """An Auto Scaling terminate hook kept alive with heartbeats, completed once."""

    def __init__(self, rng):
        self.aws = AwsWorld(HEARTBEAT_TIMEOUT_S)
        faults = [{"status": 429, "headers": {"Retry-After": "1"}}] * rng.randint(0, 1)
        self.world = DrainWorld(faults, jobs=1, job_seconds=rng.uniform(1.0, 5.0),
                                extra_config=self.aws.config())
        self.api = JsonLines(self.world.api.stdout)
        self.points = {
            "transition": lambda: True,
            "draining": lambda: any_status(self.world, lambda s: s["state"] == "shutting_down"),
            "hook known": lambda: any_status(
                self.world, lambda s: s.get("lifecycle_hook") == "drain-runner"),
            "first heartbeat": lambda: self.calls("RecordLifecycleActionHeartbeat") >= 1,
            "third heartbeat": lambda: self.calls("RecordLifecycleActionHeartbeat") >= 3,
            "unregistering": lambda: any_status(
                self.world, lambda s: s.get("drain_phase") == "unregistering"),
            "completion asked": lambda: self.calls("CompleteLifecycleAction") >= 1,
        }
        self.signalled = False  # the metadata starts the drain: no signal to keep

    def calls(self, action):
        return sum(1 for line in list(self.aws.autoscaling.lines) if line.get("action") == action)

    def begin(self):
        keeper = self.world.start_warden(env=self.aws.environment())
        if self.world.wait_for(lambda s: s.get("jobs_running") == 1) is None:
            raise AssertionError("the runner's job never showed in status")
        self.aws.autoscaling.command(terminate=INSTANCE_ID)
        self.aws.imds.command(lifecycle_state="Terminated")
        return keeper

    def problems(self):
        state = self.aws.autoscaling_state()
        problems = []
        if state["timeouts"]:
            problems.append("the hook timed out: %s" % state["timeouts"])
        accepted = [c for c in state["completions"] if c["accepted"]]
        if accepted != [{"instance": INSTANCE_ID, "hook": "drain-runner", "result": "CONTINUE",
                         "accepted": True}]:
            problems.append("completions: %s" % state["completions"])
        self.world.api.stdin.close()
        self.world.api.wait()
        self.api.join()
        return (problems + runner_problems(self.world.runner_record())
                + unregistration_problems(self.api.lines))

    def close(self):
        self.world.close()
        self.aws.close()
        shutil.rmtree(self.world.dir, ignore_errors=True)


TRIALS = {"gitlab": GitlabTrial, "github": GithubTrial, "aws": AwsTrial}


def wait_for_point(reached, keeper):
    """True once the point shows in its lasting record; False when runwarden ended first."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if reached():
            return True
        if keeper.poll() is not None:
            return False
        time.sleep(POLL_S)
    raise AssertionError("the point was not reached in %d s" % WAIT_S)


def kill_plan(rng, points):
    kills = 2 if rng.random() < SECOND_KILL_CHANCE else 1
    return [(rng.choice(sorted(points)), round(rng.uniform(0, KILL_DELAY_MAX_S), 3))
            for _ in range(kills)]


def after_kill(trial, keeper, killed, drain_was_over):
    """Waits for the keeper's new warden and watches it; the problems seen meanwhile."""
    world = trial.world
    if wait_for_warden(keeper, other_than=killed) is None:
        if keeper.poll() is None:
            raise AssertionError("the keeper started no new warden after %d's kill" % killed)
        # Past gone the warden told the keeper the drain's code before retiring its journal:
        # the keeper ends with it (its exit code is checked with every trial's), no warden
        # and no runner again. Before gone, ending is a failure.
        if drain_was_over:
            return []
        return ["the keeper ended (exit %d) when its warden was killed" % keeper.returncode]
    world.watch = StatusWatch(world.socket, keeper)
    world.watches.append(world.watch)
    if drain_was_over:
        # The drain reached gone before the kill: the new warden must not begin a new life
        # (a fresh runner) but let the keeper end with the drain's code.
        try:
            keeper.wait(timeout=SIGNAL_KEPT_S)
            return []
        except subprocess.TimeoutExpired:
            keeper.send_signal(signal.SIGTERM)
            return ["the keeper did not end %d s after a warden killed past gone was "
                    "started again" % SIGNAL_KEPT_S]
    return signal_kept(world, keeper) if trial.signalled else []


def run_trial(seed):
    """The problems found in one trial (none: it passed) and what it did."""
    rng = random.Random(seed)
    kind = KINDS[seed % len(KINDS)]
    trial = TRIALS[kind](rng)
    plan = kill_plan(rng, trial.points)
    done, problems = [], []
    try:
        keeper = trial.begin()
        for point, delay in plan:
            if not wait_for_point(trial.points[point], keeper):
                break  # the drain ended before the point: nothing left to kill
            time.sleep(delay)
            drain_was_over = DRAIN_ENDED in trial.world.log()
            killed = kill_warden(keeper)
            if killed is None:
                break  # the warden exited on its own: the keeper is ending
            done.append("%s+%.3fs%s" % (point, delay, " (past gone)" if drain_was_over else ""))
            problems += after_kill(trial, keeper, killed, drain_was_over)
        code = keeper.wait(timeout=4 * WAIT_S)
        if code != 0:
            problems.append("runwarden (the keeper) exited %d" % code)
        problems += trial.problems()
        log = trial.world.log()
        if TOKEN in log or GITHUB_TOKEN in log:
            problems.append("a token in the log")
        recovering = [d for d in done if "past gone" not in d]
        if recovering and "continuing from the journal" not in log:
            problems.append("the restarted warden did not continue from its journal")
        if problems:
            problems.append("runwarden's log:\n" + log)
        return kind, done, problems
    except (AssertionError, subprocess.TimeoutExpired) as failure:
        return kind, done, problems + [str(failure), "runwarden's log:\n" + trial.world.log()]
    finally:
        trial.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="the first trial's seed")
    parser.add_argument("--trials", type=int, default=100, help="how many seeds, in a row")
    arguments = parser.parse_args()
    if not RUNWARDEN:
        sys.exit("set RUNWARDEN_BINARY")
    failed = []
    began = time.monotonic()
    for seed in range(arguments.seed, arguments.seed + arguments.trials):
        trial_began = time.monotonic()
        kind, kills, problems = run_trial(seed)
        verdict = "FAILED" if problems else "ok"
        print("seed %d %s kills [%s] %s (%.1f s)" % (seed, kind, ", ".join(kills), verdict,
                                                     time.monotonic() - trial_began), flush=True)
        if problems:
            failed.append(seed)
            print("\n".join(problems), flush=True)
            print("repeat: RUNWARDEN_BINARY=%s /usr/bin/python3 %s --seed %d --trials 1"
                  % (RUNWARDEN, os.path.abspath(__file__), seed), flush=True)
    print("%d trials from seed %d, %d failed %s, %.0f s"
          % (arguments.trials, arguments.seed, len(failed), failed, time.monotonic() - began))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

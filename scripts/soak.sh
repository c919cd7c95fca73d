#!/usr/bin/env bash
# Soaks the fleet simulation: random seeds of every shipped scenario for a given time, one
# worker per core, each failing seed printed with the command that repeats it. Not for CI
# (CI runs a fixed seed range per scenario, tests/CMakeLists.txt); this is for finding the
# seeds no fixed range reaches.
#   scripts/soak.sh SECONDS [SCENARIO.toml ...]
# Environment: RUNWARDEN (default build/runwarden), JOBS (default nproc), BATCH (seeds per
# sim process, default 20), BATCH_CPU_SECONDS_MAX (default 600: a batch that used that much
# CPU time is reported as a hang; CPU time, not wall time, since a soak at nice 19 on a busy
# machine may wait for minutes without a hang). A sim that crashes or hangs is a failure too,
# reported with the batch that repeats it. Exit code 1 when any seed broke an invariant,
# crashed or hung.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/soak.sh SECONDS [SCENARIO.toml ...]" >&2
  exit 64
fi
seconds=$1
shift
scenarios=("$@")
[[ ${#scenarios[@]} -gt 0 ]] || scenarios=(config/scenarios/*.toml)
runwarden=${RUNWARDEN:-build/runwarden}
jobs=${JOBS:-$(nproc)}
batch=${BATCH:-20}
batch_cpu_seconds_max=${BATCH_CPU_SECONDS_MAX:-600}
[[ -x $runwarden ]] || { echo "soak: $runwarden is not built (scripts/build.sh)" >&2; exit 66; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
deadline=$((SECONDS + seconds))

# A random first seed of a batch, far from the ranges CI runs.
random_seed() { echo $(( $(od -An -N4 -tu4 /dev/urandom) + 1000000 )); }

# One worker: batches of random seeds of random scenarios until the time is up. Each line of
# its tally is "SCENARIO SEEDS FAILED"; failing seeds go to the terminal as they are found.
worker() {
  local tally=$1
  while ((SECONDS < deadline)); do
    local scenario=${scenarios[$(od -An -N2 -tu2 /dev/urandom) % ${#scenarios[@]}]}
    local first
    first=$(random_seed)
    local last=$((first + batch - 1))
    local output status=0
    output=$(ulimit -t "$batch_cpu_seconds_max"
             exec "$runwarden" sim "$scenario" --seeds "$first..$last" 2>&1) || status=$?
    local ran failed
    ran=$(grep -c '^seed [0-9]*:' <<<"$output" || true)
    failed=$(grep -c '^  repeat with:' <<<"$output" || true)
    grep '^  ' <<<"$output" || true  # each broken invariant, then its repeat command
    if ((status > 1)); then  # neither all held (0) nor an invariant broken (1)
      local what="crashed (exit $status)"
      ((status == 137 || status == 152)) &&
        what="hung (stopped after ${batch_cpu_seconds_max} CPU seconds)"
      echo "  sim $what in a batch, after $ran seeds; repeat with:" \
           "$runwarden sim $scenario --seeds $((first + ran))..$last"
      ran=$((ran + 1))  # the seed it was running
      failed=$((failed + 1))
    fi
    echo "$(basename "$scenario" .toml) $ran $failed" >>"$tally"
  done
}

# The count per scenario of every finished batch; exit code 1 when any seed failed.
summary() {
  cat "$work"/tally.* 2>/dev/null | awk '
    { seeds[$1] += $2; failed[$1] += $3; total += $2; bad += $3 }
    END {
      for (s in seeds) printf "  %-20s %7d seeds, %d failing\n", s, seeds[s], failed[s]
      printf "soak: %d seeds, %d failing\n", total, bad
      exit bad > 0
    }'
}

# Stopped early (Ctrl-C, kill): the batches in flight end with the workers, and the count of
# the finished ones is still printed, so hours of seeds are not lost to one keystroke.
stopped_early() {
  trap '' INT TERM
  kill -TERM 0
  wait
  echo "soak: stopped early"
  summary || exit 1
  exit 130
}
trap stopped_early INT TERM

echo "soak: ${#scenarios[@]} scenarios, $jobs workers, ${seconds}s"
for ((w = 0; w < jobs; ++w)); do worker "$work/tally.$w" & done
wait
summary

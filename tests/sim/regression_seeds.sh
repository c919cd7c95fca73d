#!/usr/bin/env bash
# Runs every seed of tests/sim/regression_seeds.txt through `runwarden sim` and fails on the
# first whose invariants break, printing its repeat command.
#   tests/sim/regression_seeds.sh RUNWARDEN SCENARIO_DIR SEED_LIST
set -euo pipefail
runwarden=$1
scenarios=$2
failed=0
while read -r scenario seed _; do
  [[ -z $scenario || $scenario == \#* ]] && continue
  if ! "$runwarden" sim "$scenarios/$scenario.toml" --seed "$seed" > /dev/null; then
    echo "broken again: runwarden sim config/scenarios/$scenario.toml --seed $seed" >&2
    failed=1
  fi
done < "$3"
exit "$failed"

#!/usr/bin/env bash
# Runs seeds of one scenario twice through `runwarden sim` and compares the two runs' JSON
# reports, journals and timelines byte for byte (FoundationDB's "unseed" check): the same
# seed and binary must give the same run.
#   tests/sim/same_seed_twice.sh RUNWARDEN SCENARIO SEED...
set -euo pipefail
runwarden=$1
scenario=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for seed in "$@"; do
  for run in a b; do
    "$runwarden" sim "$scenario" --seed "$seed" --report json --journal "$work/$run.journal" \
      --timeline "$work/$run.svg" > "$work/$run.json" || true
  done
  for kind in json journal svg; do
    if ! cmp -s "$work/a.$kind" "$work/b.$kind"; then
      echo "$(basename "$scenario") seed $seed: the two runs' $kind differ" >&2
      exit 1
    fi
  done
  rm -f "$work"/a.* "$work"/b.*
done
echo "$(basename "$scenario"): every seed ran twice to identical bytes"

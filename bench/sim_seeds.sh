#!/usr/bin/env bash
# Seeds per second of the fleet simulation's reference scenario (config/scenarios/
# steady-load.toml: 20 instances, one simulated hour, faults on), split over one
# `runwarden sim --seeds` process per core. Usage:
#   bench/sim_seeds.sh [BUILD_DIR] [SEEDS]      (defaults: build, 1000)
set -euo pipefail
build=${1:-build}
seeds=${2:-1000}
scenario=config/scenarios/steady-load.toml
cores=$(nproc)
per_core=$(( (seeds + cores - 1) / cores ))
start=$(date +%s.%N)
pids=()
for ((core = 0; core < cores; ++core)); do
  first=$(( core * per_core + 1 ))
  last=$(( first + per_core - 1 ))
  (( last > seeds )) && last=$seeds
  (( first > last )) && continue
  "$build/runwarden" sim "$scenario" --seeds "$first..$last" | tail -1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
end=$(date +%s.%N)
awk -v s="$seeds" -v a="$start" -v b="$end" -v c="$cores" 'BEGIN {
  printf "%d seeds of steady-load on %d cores in %.1f s: %.1f seeds/s\n", s, c, b - a, s / (b - a)
}'
exit $status

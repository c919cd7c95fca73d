#!/usr/bin/env bash
# Every measurement of the performance budget (issue 9), one after the other, then the
# results table for bench/README.md. Uses the binaries already built; builds nothing.
#   bench/run_all.sh [--quick] [BUILD_DIR]      (BUILD_DIR defaults to build)
# Whole-process harnesses (bench/measure_*.py): start-up, completion, reaction, idle cost.
# Then each Google Benchmark program briefly, Debian's Python Prometheus parser on the
# C++ bench's page, and `runwarden sim` over a range of seeds of the steady-load scenario in
# one process (seeds per second on one core). --quick: tiny counts (3 trials, a 5 s window,
# 3 seeds), under a minute, for a smoke test. Exit status 0 when everything ran; no figure is checked against its target.
# Results (JSON and text) go to BUILD_DIR/bench-results/, the table to its table.md.
# The harnesses run a copy of BUILD_DIR/runwarden taken at the start, so a build relinking
# it meanwhile cannot mix two builds into one table.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
quick=()
if [[ ${1:-} == --quick ]]; then
  quick=(--quick)
  shift
fi
build=$(cd "${1:-$here/../build}" && pwd)
out=$build/bench-results
python=/usr/bin/python3  # Debian's: botocore, prometheus_client, grpcio
if [[ ${#quick[@]} -gt 0 ]]; then
  min_time=0.01 python_rounds=1 sim_seeds=3
else
  min_time=0.5 python_rounds=5 sim_seeds=200
fi
rm -rf "$out"
mkdir -p "$out"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-XXXXXX")
trap 'rm -rf "$scratch"' EXIT

until cp -p "$build/runwarden" "$scratch/runwarden" 2>/dev/null &&
      "$scratch/runwarden" version > /dev/null 2>&1; do
  echo "waiting for $build/runwarden (being relinked?)"
  sleep 5
done
for measurement in startup completion reaction idle; do
  echo "== $measurement"
  "$python" "$here/measure_$measurement.py" --build "$scratch" \
    --out "$out/$measurement.json" "${quick[@]}" > "$out/$measurement.log"
done

journal_dir=$scratch/journal
mkdir "$journal_dir"
for program in drain_machine_bench prometheus_parse_bench sigv4_bench journal_append_bench; do
  echo "== $program"
  RUNWARDEN_BENCH_DIR=$journal_dir "$build/bench/$program" --benchmark_min_time="$min_time" \
    --benchmark_out="$out/$program.json" --benchmark_out_format=json > "$out/$program.log" 2>&1
done

echo "== prometheus_parse_python"
"$build/bench/prometheus_parse_bench" --write-page="$out/page.prom"
"$python" "$here/prometheus_parse_python.py" "$out/page.prom" "$python_rounds" \
  > "$out/prometheus_parse_python.log"

echo "== sim"
started=$(date +%s.%N)
"$scratch/runwarden" sim "$here/../config/scenarios/steady-load.toml" --seeds "1..$sim_seeds" \
  > "$out/sim.log"
ended=$(date +%s.%N)
awk -v seeds="$sim_seeds" -v a="$started" -v b="$ended" \
  'BEGIN { printf "{\"seeds\": %d, \"seconds\": %.3f}\n", seeds, b - a }' > "$out/sim.json"

"$python" "$here/report.py" "$out" | tee "$out/table.md"

#!/usr/bin/env bash
# Whole-process idle cost of `runwarden run` supervising an idle runner: CPU seconds over a
# measured window (scaled to an hour) and peak RSS, read from /proc. Usage:
#   bench/idle_cost.sh [BUILD_DIR] [SECONDS]      (defaults: build, 20)
set -euo pipefail
build=${1:-build}
seconds=${2:-20}
ticks_per_second=$(getconf CLK_TCK)

"$build/runwarden" run --log-level warn -- sleep $((seconds + 30)) &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
sleep 1  # start-up is not idle cost

cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
before=$(cpu_ticks)
sleep "$seconds"
after=$(cpu_ticks)
peak_rss_kib=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
threads=$(awk '/Threads/ {print $2}' "/proc/$pid/status")

awk -v ticks=$((after - before)) -v hz="$ticks_per_second" -v s="$seconds" \
    -v rss="$peak_rss_kib" -v threads="$threads" 'BEGIN {
  cpu = ticks / hz
  printf "idle window        %d s\n", s
  printf "cpu                %.2f s (%.1f cpu-seconds per hour)\n", cpu, cpu * 3600 / s
  printf "peak rss           %.1f MiB\n", rss / 1024
  printf "threads            %d\n", threads
}'

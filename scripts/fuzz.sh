#!/usr/bin/env bash
# Fuzzes the Prometheus text parser: builds fuzz/prometheus_text_fuzz.cpp with the parser's
# own sources only (src/metrics/*.cpp, no other dependency) under libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer, then runs it for SECONDS (default 20) seeded with the
# conformance cases and the gitlab-runner sample page. Usage: scripts/fuzz.sh [SECONDS]
# FUZZ_BUILD_DIR overrides where it builds (default build-fuzz/); the corpus it grows stays
# there. Exits 77 (ctest's "skipped") when clang++ is not installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-20}
out=${FUZZ_BUILD_DIR:-$root/build-fuzz}

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: clang++ not found, skipping (scripts/install-deps.sh installs clang)" >&2
  exit 77
fi

mkdir -p "$out/corpus"
clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Wall -Wextra -Werror -I"$root" \
  "$root/fuzz/prometheus_text_fuzz.cpp" "$root"/src/metrics/*.cpp \
  -o "$out/prometheus_text_fuzz"

# Seeds are copied, so that inputs the fuzzer adds land in the build directory, not in tests/.
cp "$root"/tests/data/prometheus/text_parse_cases/*.prom \
   "$root"/tests/data/gitlab-runner/metrics_sample_constructed.prom "$out/corpus/"

echo "fuzz: running for ${seconds}s" >&2
exec "$out/prometheus_text_fuzz" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 "$out/corpus"

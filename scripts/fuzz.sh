#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang++, libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer; fuzz/CMakeLists.txt) and runs one, several or all of them for
# SECONDS each (default 20), one after another, each seeded from tests/data.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]   run TARGETs (default: all), SECONDS each
#   scripts/fuzz.sh --build                 only build them
#   scripts/fuzz.sh --list                  name the targets
#
# FUZZ_BUILD_DIR overrides where it builds (default build-fuzz/); the corpus each target
# grows stays there (corpus/TARGET), and so does any crashing input (crash-*), which then
# belongs in tests/data/fuzz/TARGET/ as a regression seed once fixed. A run that finds a
# crash, a sanitizer report or a hang (-timeout) exits non-zero. Exits 77 (ctest's
# "skipped") when clang++ is not installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${FUZZ_BUILD_DIR:-$root/build-fuzz}
data=$root/tests/data

# Every fuzz/NAME_fuzz.cpp is a target called NAME.
targets=()
for source in "$root"/fuzz/*_fuzz.cpp; do
  name=${source##*/}
  targets+=("${name%_fuzz.cpp}")
done

# The seed files of a target: its own small corpus in tests/data/fuzz/TARGET (which holds the
# regression inputs too), plus the test data that already holds its kind of input.
seeds_of() {
  local own=$data/fuzz/$1
  [[ -d $own ]] && find "$own" -type f
  case $1 in
    prometheus_text) ls "$data"/prometheus/text_parse_cases/*.prom "$data"/fresh_registry.prom \
                        "$data"/gitlab-runner/metrics_sample_constructed.prom ;;
    runwarden_config) ls "$root"/config/runwarden.toml ;;
    gitlab_runner_config) find "$data"/gitlab-runner -name '*.toml' -o -name .runner_system_id ;;
    autoscaling_answers|aws_error_envelope) ls "$data"/aws/*.xml ;;
  esac
}

if [[ ${1:-} == --list ]]; then printf '%s\n' "${targets[@]}"; exit 0; fi
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: clang++ not found, skipping (scripts/install-deps.sh installs clang)" >&2
  exit 77
fi

launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root/fuzz" -B "$out" -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >/dev/null
cmake --build "$out" -j"$(nproc)" >&2
if [[ ${1:-} == --build ]]; then exit 0; fi

seconds=${1:-20}
shift || true
(( $# > 0 )) || set -- "${targets[@]}"
for target in "$@"; do
  [[ " ${targets[*]} " == *" $target "* ]] || { echo "fuzz: no target $target" >&2; exit 64; }
  corpus=$out/corpus/$target
  mkdir -p "$corpus"
  # Seeds are copied, so that inputs the fuzzer adds land in the build directory, not in tests/.
  seeds_of "$target" | while read -r seed; do cp "$seed" "$corpus/"; done
  echo "fuzz: $target for ${seconds}s" >&2
  (cd "$out" && "./${target}_fuzz" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
     -rss_limit_mb=2048 -print_final_stats=1 "$corpus")
done

#!/usr/bin/env bash
# The static binary beside the dynamic one, in one run (issue 35): the same harnesses
# (measure_startup.py: start-up, `version`, `ctl status`; measure_idle.py: idle CPU and the
# keeper's and the warden's peak RSS) on copies of the binaries, in turns, so that a change of
# the machine's load falls on every variant alike. The variants:
#   dynamic     build/runwarden with its keeper program beside it (the Debian package);
#   before      with --before FILE only: an earlier static runwarden, copied alone, so that
#               it is its own keeper (as every static binary was before runwarden-keeper);
#   static      build-static/runwarden with build-static/runwarden-keeper beside it (the
#               tarball, the .rpm, the container image).
# Where hyperfine is installed (Debian's package), `version` and `ctl status` are timed with
# it too (-N: no shell; 5 warm-ups, 100 runs, medians), every variant in one invocation.
# Builds nothing.
#   bench/compare_static.sh [--quick] [--rounds N] [--before FILE] [DYNAMIC_BUILD]
#                           [STATIC_BUILD]
#                             (defaults: 2 rounds, build and build-static)
# Results (JSON) go to STATIC_BUILD/bench-static/, the table to its table.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
quick=()
rounds=2
before=
while [[ ${1:-} == --* ]]; do
  case $1 in
    --quick) quick=(--quick) ;;
    --rounds) rounds=$2; shift ;;
    --before) before=$(realpath "$2"); shift ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
  shift
done
dynamic=$(cd "${1:-$here/../build}" && pwd)
static=$(cd "${2:-$here/../build-static}" && pwd)
out=$static/bench-static
python=/usr/bin/python3
variants=(dynamic static)
[[ -z $before ]] || variants=(dynamic before static)
rm -rf "$out"
mkdir -p "$out"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-static-XXXXXX")
cleanup() {  # the runwardens started for `ctl status`, should the script stop early
  [[ ! -f $scratch/keepers ]] || xargs kill -TERM < "$scratch/keepers" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
for variant in "${variants[@]}"; do
  mkdir "$scratch/$variant"
  case $variant in
    before) cp -p "$before" "$scratch/$variant/runwarden"; continue ;;
    dynamic) source_dir=$dynamic ;;
    static) source_dir=$static ;;
  esac
  cp -p "$source_dir/runwarden" "$source_dir/runwarden-keeper" "$scratch/$variant/"
done

for round in $(seq "$rounds"); do
  for variant in "${variants[@]}"; do
    for measurement in startup idle; do
      echo "== $measurement, $variant, round $round"
      "$python" "$here/measure_$measurement.py" --build "$scratch/$variant" \
        --out "$out/$measurement-$variant-$round.json" "${quick[@]}" \
        > "$out/$measurement-$variant-$round.log"
    done
  done
done

if command -v hyperfine >/dev/null; then
  runs=100
  [[ ${#quick[@]} -eq 0 ]] || runs=5
  echo "== hyperfine: version"
  commands=()
  for variant in "${variants[@]}"; do commands+=("$scratch/$variant/runwarden version"); done
  hyperfine -N --warmup 5 --runs "$runs" --export-json "$out/hyperfine-version.json" \
    "${commands[@]}" > "$out/hyperfine-version.log"
  echo "== hyperfine: ctl status"
  commands=()
  for variant in "${variants[@]}"; do
    # One runwarden per variant, each answering its own binary's `ctl status`.
    "$scratch/$variant/runwarden" run --state-dir "$scratch/$variant/state" \
      --grpc-listen "unix://$scratch/$variant/control.sock" --http-listen none \
      -- sleep 3600 > "$scratch/$variant/run.log" 2>&1 &
    echo $! >> "$scratch/keepers"
    commands+=("$scratch/$variant/runwarden ctl --socket $scratch/$variant/control.sock status")
  done
  for variant in "${variants[@]}"; do
    for _ in $(seq 300); do
      [[ -S $scratch/$variant/control.sock ]] && break
      sleep 0.1
    done
  done
  hyperfine -N --warmup 5 --runs "$runs" --export-json "$out/hyperfine-ctl-status.json" \
    "${commands[@]}" > "$out/hyperfine-ctl-status.log"
  while read -r pid; do
    kill -TERM "$pid"
    wait "$pid" || true
  done < "$scratch/keepers"
  rm "$scratch/keepers"
fi

"$python" - "$out" "$rounds" "${variants[@]}" <<'PYTHON' | tee "$out/table.md"
import json, os, sys
out, rounds, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def read(name):
    return json.load(open(os.path.join(out, name)))
def values(kind, variant, key):
    return [read("%s-%s-%d.json" % (kind, variant, r))[key] for r in range(1, rounds + 1)]
rows = [("start-up, exec → health check answered (median)", "startup", "p50_ms", "ms"),
        ("`runwarden version` (p50)", "startup", "version_p50_ms", "ms"),
        ("`runwarden ctl status` (p50)", "startup", "ctl_status_p50_ms", "ms"),
        ("peak RSS, warden (VmHWM)", "idle", "runwarden_peak_rss_mib", "MiB"),
        ("peak RSS, keeper (VmHWM)", "idle", "keeper_peak_rss_mib", "MiB"),
        ("idle CPU, keeper + warden", "idle", "runwarden_cpu_s_per_hour", "CPU-s/h")]
print("| measurement (rounds 1..%d) | %s |" % (rounds, " | ".join(variants)))
print("| --- |" + " --- |" * len(variants))
def cell(numbers, unit):
    return ", ".join("%.1f" % n for n in numbers) + " " + unit
for label, kind, key, unit in rows:
    print("| %s | %s |" % (label, " | ".join(cell(values(kind, v, key), unit)
                                             for v in variants)))
sums = {v: [w + k for w, k in zip(values("idle", v, "runwarden_peak_rss_mib"),
                                  values("idle", v, "keeper_peak_rss_mib"))] for v in variants}
print("| peak RSS, keeper + warden | %s |" % " | ".join(cell(sums[v], "MiB") for v in variants))
for name, label in (("version", "`runwarden version`"), ("ctl-status", "`runwarden ctl status`")):
    path = os.path.join(out, "hyperfine-%s.json" % name)
    if os.path.exists(path):
        results = json.load(open(path))["results"]
        print("| %s, hyperfine median (mean ± σ) | %s |" % (label, " | ".join(
            "%.2f ms (%.2f ± %.2f)" % (r["median"] * 1e3, r["mean"] * 1e3, r["stddev"] * 1e3)
            for r in results)))
loads = [read("startup-%s-%d.json" % (v, r))["load_before"] for r in range(1, rounds + 1)
         for v in variants]
print("\nload average before each start-up run, in the order run: %s" % loads)
PYTHON

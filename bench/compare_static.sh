#!/usr/bin/env bash
# The static binary beside the dynamic one, in one run (issue 35): the same harnesses
# (measure_startup.py: start-up, `version`, `ctl status`; measure_idle.py: idle CPU and the
# keeper's and the warden's peak RSS) on copies of both binaries, in turns: dynamic, static,
# dynamic, static, so that a change of the machine's load falls on both alike. Builds nothing.
#   bench/compare_static.sh [--quick] [DYNAMIC_BUILD] [STATIC_BUILD]
#                             (defaults: build and build-static)
# Results (JSON) go to STATIC_BUILD/bench-static/, the table to its table.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
quick=()
if [[ ${1:-} == --quick ]]; then
  quick=(--quick)
  shift
fi
dynamic=$(cd "${1:-$here/../build}" && pwd)
static=$(cd "${2:-$here/../build-static}" && pwd)
out=$static/bench-static
python=/usr/bin/python3
rm -rf "$out"
mkdir -p "$out"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-static-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
for variant in dynamic static; do
  mkdir "$scratch/$variant"
  source_dir=$dynamic
  [[ $variant == static ]] && source_dir=$static
  cp -p "$source_dir/runwarden" "$scratch/$variant/runwarden"
done

for round in 1 2; do
  for variant in dynamic static; do
    for measurement in startup idle; do
      echo "== $measurement, $variant, round $round"
      "$python" "$here/measure_$measurement.py" --build "$scratch/$variant" \
        --out "$out/$measurement-$variant-$round.json" "${quick[@]}" \
        > "$out/$measurement-$variant-$round.log"
    done
  done
done

"$python" - "$out" <<'PYTHON' | tee "$out/table.md"
import json, os, statistics, sys
out = sys.argv[1]
def read(name):
    return json.load(open(os.path.join(out, name)))
rows = [("start-up, exec → health check answered (median)", "startup", "p50_ms", "ms"),
        ("`runwarden version` (p50)", "startup", "version_p50_ms", "ms"),
        ("`runwarden ctl status` (p50)", "startup", "ctl_status_p50_ms", "ms"),
        ("peak RSS, warden (VmHWM)", "idle", "runwarden_peak_rss_mib", "MiB"),
        ("peak RSS, keeper (VmHWM)", "idle", "keeper_peak_rss_mib", "MiB"),
        ("idle CPU, keeper + warden", "idle", "runwarden_cpu_s_per_hour", "CPU-s/h")]
print("| measurement | dynamic (rounds 1, 2) | static (rounds 1, 2) |")
print("| --- | --- | --- |")
for label, kind, key, unit in rows:
    cells = []
    for variant in ("dynamic", "static"):
        values = [read("%s-%s-%d.json" % (kind, variant, r))[key] for r in (1, 2)]
        cells.append("%.1f, %.1f %s" % (values[0], values[1], unit))
    print("| %s | %s | %s |" % (label, cells[0], cells[1]))
for variant in ("dynamic", "static"):
    sums = [read("idle-%s-%d.json" % (variant, r)) for r in (1, 2)]
    total = [s["runwarden_peak_rss_mib"] + s["keeper_peak_rss_mib"] for s in sums]
    print("\n%s: keeper + warden peak RSS %.1f, %.1f MiB" % (variant, total[0], total[1]))
loads = [read("startup-%s-%d.json" % (v, r))["load_before"] for r in (1, 2)
         for v in ("dynamic", "static")]
print("load average before each start-up run: %s" % loads)
PYTHON

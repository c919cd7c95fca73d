#!/usr/bin/env bash
# systemd-analyze verify on the shipped unit (config/runwarden.service), as systemd itself
# loads it: unknown keys, bad values and a missing ExecStart= program are errors. The unit
# names /usr/bin/runwarden, installed only by the package, so a copy points at the built
# binary instead; the man page it names is checked by check_man_page.py, and verify's
# man-page lookup is off here (the package test verifies the installed unit with it on).
#
# usage: verify_unit.sh RUNWARDEN_BINARY UNIT_FILE
set -euo pipefail
binary=$1 unit=$2
directory=$(mktemp -d)
trap 'rm -rf "$directory"' EXIT

grep -q '^ExecStart=/usr/bin/runwarden ' "$unit" || {
  echo "the unit's ExecStart= does not start /usr/bin/runwarden" >&2
  exit 1
}
sed "s#^ExecStart=/usr/bin/runwarden #ExecStart=$binary #" "$unit" > "$directory/runwarden.service"
# verify prints its findings on stderr and may still exit 0 for some; any output fails.
status=0
output=$(systemd-analyze verify --man=no "$directory/runwarden.service" 2>&1) || status=$?
if [ "$status" -ne 0 ] || [ -n "$output" ]; then
  echo "systemd-analyze verify failed ($status):" >&2
  echo "$output" >&2
  exit 1
fi
grep -q '^Type=notify$' "$unit" || { echo "the unit is not Type=notify" >&2; exit 1; }
echo "systemd-analyze verify: $unit is clean"

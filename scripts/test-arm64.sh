#!/usr/bin/env bash
# The arm64 static binary (issue 35), built and tested by hand on this amd64 machine; CI does
# not run it (README.md, "Any other Linux", says why and how long it takes). It installs the
# cross toolchain, the :arm64 packages and qemu-user (scripts/install-deps-arm64.sh), cross-
# builds runwarden, the demo runner and the unit tests into build-static-arm64/
# (cmake/aarch64-linux-gnu.cmake), then runs under qemu-aarch64-static:
# - `runwarden version`, through qemu named on the command line (no binfmt needed);
# - the unit tests (CTest's static_unit_tests, the whole cross-built unit_tests);
# - the empty-root test and the sd_notify test of tests/static, as for x86-64: a whole drain
#   of the demo runner, `ctl status`; the keeper starts the warden from its own binary, so
#   these run where every exec of an arm64 binary reaches qemu, through a binfmt_misc of
#   their own (tests/static/under_qemu_binfmt.sh; Linux 6.7 or later, else skipped).
# Niced, on at most two cores. Prints how long each step took.
set -euo pipefail
cd "$(dirname "$0")/.."

step() {
  local name=$1 started
  shift
  started=$(date +%s)
  echo "== $name" >&2
  "$@"
  echo "== $name: $(($(date +%s) - started)) s" >&2
}

step "arm64 build" nice -n 10 scripts/build.sh static-arm64 \
  runwarden runwarden-demo-runner unit_tests
file build-static-arm64/runwarden | grep -q 'ARM aarch64.*statically linked' ||
  { echo "build-static-arm64/runwarden is not a static aarch64 binary" >&2; exit 1; }
step "arm64 version under qemu" qemu-aarch64-static build-static-arm64/runwarden version
(cd build-static-arm64 &&
   step "arm64 tests under qemu" nice -n 10 ctest --output-on-failure -j2 -R '^static_')

#!/usr/bin/env bash
# Configures and builds one variant of runwarden: `release` (default) or `sanitize`
# (AddressSanitizer + UndefinedBehaviorSanitizer), in build/ or build-sanitize/.
set -euo pipefail
cd "$(dirname "$0")/.."

variant=${1:-release}
case "$variant" in
  release) directory=build; options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  sanitize) directory=build-sanitize
            options=(-DCMAKE_BUILD_TYPE=Debug -DRUNWARDEN_SANITIZE=ON -DRUNWARDEN_BUILD_BENCH=OFF) ;;
  *) echo "usage: scripts/build.sh [release|sanitize]" >&2; exit 64 ;;
esac

scripts/install-deps.sh
cmake -S . -B "$directory" "${options[@]}" >/dev/null
cmake --build "$directory" -j"$(nproc)"

#!/usr/bin/env bash
# Configures and builds one variant of runwarden: `release` (default), `sanitize`
# (AddressSanitizer + UndefinedBehaviorSanitizer) or `static` (one binary needing only the
# kernel, cmake/StaticDependencies.cmake), in build/, build-sanitize/ or build-static/; or
# `static-arm64`, the static binary for aarch64 cross-built with Debian's cross toolchain
# (cmake/aarch64-linux-gnu.cmake) into build-static-arm64/. Targets after the variant build
# only those (the demo builds two); by default everything is built.
set -euo pipefail
cd "$(dirname "$0")/.."

variant=${1:-release}
shift || true
targets=()
[ $# -eq 0 ] || targets=(--target "$@")
case "$variant" in
  release) directory=build; options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  sanitize) directory=build-sanitize
            options=(-DCMAKE_BUILD_TYPE=Debug -DRUNWARDEN_SANITIZE=ON -DRUNWARDEN_BUILD_BENCH=OFF) ;;
  # The same compile flags as release, so that ccache serves release's objects (only the
  # link differs: cmake/StaticDependencies.cmake).
  static) directory=build-static
          options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNWARDEN_STATIC=ON
                   -DRUNWARDEN_BUILD_BENCH=OFF) ;;
  # The same for arm64; its own packages (the :arm64 ones, qemu) are installed apart, as CI
  # builds no arm64 (scripts/test-arm64.sh). No release objects to share here, and the
  # binary drops its debug information anyway: compiled without it, which is faster.
  static-arm64) directory=build-static-arm64
                options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNWARDEN_STATIC=ON
                         -DRUNWARDEN_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG"
                         -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG"
                         -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake")
                scripts/install-deps-arm64.sh ;;
  *) echo "usage: scripts/build.sh [release|sanitize|static|static-arm64] [TARGET...]" >&2
     exit 64 ;;
esac

scripts/install-deps.sh
# ccache, when installed, makes rebuilds of unchanged files free; paths are taken relative
# to the checkout so that another checkout of the same sources hits the same cache.
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$directory" "${options[@]}" >/dev/null
cmake --build "$directory" -j"$(nproc)" "${targets[@]}"

#!/usr/bin/env bash
# Installs runwarden's development files from a build tree into a temporary prefix, builds
# examples/embedded_host against them with find_package(runwarden), and runs it: it embeds
# runwarden supervising the installed demo runner, drains it and exits with its exit code.
# The host is configured with gRPC and abseil made unfindable, and must link neither: the
# installed library is the core, without the daemon's control API.
# Usage: embedded_host_example.sh BUILD_DIR EXAMPLE_DIR
set -euo pipefail
build_dir=$1
example_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" --component development
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$example_dir" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_DISABLE_FIND_PACKAGE_gRPC=ON \
      -DCMAKE_DISABLE_FIND_PACKAGE_absl=ON "${launcher[@]}"
cmake --build "$work/build"
test -x "$work/prefix/libexec/runwarden/runwarden-demo-runner"
test -f "$work/prefix/lib/cmake/runwarden/runwardenConfigVersion.cmake"
if ldd "$work/build/embedded_host" | grep -E "libgrpc|libabsl"; then
  echo "the host links gRPC or abseil" >&2
  exit 1
fi
# The example exits with the runner's code: 0 when it drained and finished its jobs.
timeout 120 "$work/build/embedded_host"

#!/usr/bin/env bash
# Makes the release artefacts for every Linux but Debian (issue 35): the static binary
# (build-static/, cmake/StaticDependencies.cmake), checked in an empty root by CTest
# (tests/static), then packed as a tarball and an .rpm from the same install rules
# (cmake/StaticPackaging.cmake), into dist/ with their sha256 sums. The Debian package is
# made apart and stays dynamic (`cpack -G DEB` in build/, cmake/Packaging.cmake).
#
#   scripts/release.sh            # x86-64: dist/runwarden-VERSION-linux-x86_64.tar.gz, .rpm
#                                 # and arm64: dist/runwarden-VERSION-linux-aarch64.tar.gz, .rpm
#   scripts/release.sh x86_64     # only one of the two (x86_64 or aarch64)
#
# The arm64 binary is cross-built and tested under qemu-user by scripts/test-arm64.sh (its
# unit tests and the same empty-root test), then packed the same way from build-static-arm64/.
# Heavy: CAF and libcurl are built from Debian's sources the first time (see bench/README.md
# for the times); it runs niced, on at most two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

architectures=(x86_64 aarch64)
[ $# -eq 0 ] || architectures=("$@")
command -v rpmbuild >/dev/null || { echo "rpmbuild missing: apt-get install rpm" >&2; exit 69; }
mkdir -p dist
for architecture in "${architectures[@]}"; do
  case "$architecture" in
    x86_64) directory=build-static
            nice -n 10 scripts/build.sh static runwarden runwarden-demo-runner
            (cd build-static && nice -n 10 ctest --output-on-failure -R '^static_') ;;
    aarch64) directory=build-static-arm64
             scripts/test-arm64.sh ;;
    *) echo "usage: scripts/release.sh [x86_64] [aarch64]" >&2; exit 64 ;;
  esac
  (cd "$directory" && nice -n 10 cpack -G "TGZ;RPM" -B "$PWD/../dist" >/dev/null)
  rm -rf dist/_CPack_Packages
done
(cd dist && sha256sum -- *.tar.gz *.rpm > SHA256SUMS && cat SHA256SUMS)

#!/usr/bin/env bash
# Makes the release artefacts for every Linux but Debian (issue 35): the static binary
# (build-static/, cmake/StaticDependencies.cmake), checked in an empty root by CTest
# (tests/static), then packed as a tarball and an .rpm from the same install rules
# (cmake/StaticPackaging.cmake), into dist/ with their sha256 sums. The Debian package is
# made apart and stays dynamic (`cpack -G DEB` in build/, cmake/Packaging.cmake).
#
#   scripts/release.sh            # x86-64: dist/runwarden-VERSION-linux-x86_64.tar.gz, .rpm
#
# Heavy: CAF and libcurl are built from Debian's sources the first time (see bench/README.md
# for the times); it runs niced, on at most two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v rpmbuild >/dev/null || { echo "rpmbuild missing: apt-get install rpm" >&2; exit 69; }
nice -n 10 scripts/build.sh static runwarden runwarden-demo-runner
(cd build-static && nice -n 10 ctest --output-on-failure -R '^static_')
mkdir -p dist
(cd build-static && nice -n 10 cpack -G "TGZ;RPM" -B "$PWD/../dist" >/dev/null)
rm -rf dist/_CPack_Packages
(cd dist && sha256sum -- *.tar.gz *.rpm > SHA256SUMS && cat SHA256SUMS)

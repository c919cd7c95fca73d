#!/usr/bin/env bash
# Installs what the arm64 static binary is cross-built and tested with (issue 35), beside
# scripts/install-deps.sh's amd64 packages: Debian 12's cross toolchain, the multiarch :arm64
# development packages of the libraries the static variant links (cmake/StaticDependencies.cmake
# says which; the header-only ones and CAF's headers are the amd64 packages', shared), and
# qemu-user to run the result. protoc and grpc_cpp_plugin stay the host's.
# Not part of CI (scripts/test-arm64.sh runs the arm64 build by hand). Idempotent.
# A :arm64 package of a "Multi-Arch: same" library must have its amd64 twin's exact version, so
# installing one may upgrade the amd64 package to the mirror's current version.
set -euo pipefail

packages=(
  crossbuild-essential-arm64 qemu-user-static
  libgrpc++-dev:arm64 libprotobuf-dev:arm64 libssl-dev:arm64 zlib1g-dev:arm64
  libpugixml-dev:arm64 libcurl4-openssl-dev:arm64 libfmt-dev:arm64 libspdlog-dev:arm64
  libtomlplusplus-dev:arm64 libboost-dev:arm64
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
else
  sudo=
fi
export DEBIAN_FRONTEND=noninteractive
dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

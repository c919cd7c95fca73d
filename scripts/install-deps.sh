#!/usr/bin/env bash
# Installs the Debian 12 packages runwarden builds and tests with, and nothing else.
# Idempotent: it asks dpkg what is present and stays quiet when nothing is missing.
set -euo pipefail

packages=(
  g++ cmake make pkg-config ccache
  libcaf-dev libspdlog-dev libfmt-dev
  catch2 libtomlplusplus-dev libcli11-dev nlohmann-json3-dev
  libbenchmark-dev
  libgrpc++-dev protobuf-compiler protobuf-compiler-grpc libprotobuf-dev
  python3-grpcio python3-grpc-tools
  libcurl4-openssl-dev libssl-dev openssl  # openssl: the TLS tests' certificates
  libpugixml-dev python3-botocore  # AWS XML answers; botocore cross-checks our SigV4 signer
  libboost-dev prometheus  # Boost.Asio and Beast: io thread, HTTP; promtool for their tests
  clang python3-prometheus-client  # the metrics parser's fuzzer; its Python comparison bench
  libsystemd-dev systemd  # sd_notify for Type=notify; systemd-analyze verifies the unit
  dpkg-dev lintian man-db groff-base  # the Debian package: dpkg-shlibdeps, its checks
  e2fsprogs util-linux  # mkfs.ext4, mount, findmnt: the journal's disk-fault test
  libkainjow-mustache-dev  # Mustache for webhook body templates
  python3-kubernetes python3-yaml  # the official client cross-checks the pod patches
  clang-format-14  # the tidy check (scripts/check_tidy.py) holds the layout
  lld  # the static binary's link, its functions ordered (cmake/static_link_order.txt)
  dbus-daemon python3-dbus python3-gi  # a private bus and a fake logind (tests/os/fake_logind.py)
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
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

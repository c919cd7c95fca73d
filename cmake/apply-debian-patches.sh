#!/bin/sh
# Applies the quilt series of a Debian source package's debian.tar.xz to the source tree in
# the current directory, in the series' order, leaving out the patches named after the
# tarball. Used by the static variant's ExternalProject builds (cmake/StaticDependencies.cmake).
set -eu
debian_tarball=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xf "$debian_tarball"
grep -v '^#' "$work/debian/patches/series" | while read -r patch _; do
  [ -n "$patch" ] || continue
  skip=no
  for left_out in "$@"; do [ "$patch" = "$left_out" ] && skip=yes; done
  [ "$skip" = yes ] && continue
  patch -p1 -s --forward --no-backup-if-mismatch < "$work/debian/patches/$patch"
done

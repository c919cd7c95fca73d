#!/bin/sh
# Fails unless every header under $1 (a library's headers, as its static build installed
# them) is byte for byte the one under $2 (Debian's installed headers), which runwarden is
# compiled against: the static variant links the one and compiles against the other.
set -eu
built=$1
installed=$2
cd "$built"
different=$(find . -type f | while read -r file; do
  cmp -s "$file" "$installed/$file" || echo "$file"
done)
if [ -n "$different" ]; then
  echo "headers built from the tarball differ from $installed:" >&2
  echo "$different" >&2
  exit 1
fi

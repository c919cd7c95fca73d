#!/bin/sh
# Runs a command where the target's ELF binaries run through qemu-user at every exec, not only
# when started as `qemu-aarch64-static BINARY`: in a user and mount namespace of its own with
# its own binfmt_misc (Linux 6.7 and later), so nothing outside it changes. The 'F' flag opens
# qemu now, so that it still serves inside a chroot that holds no qemu.
#   tests/static/under_qemu_binfmt.sh qemu-aarch64-static COMMAND...
# Exits 77 (skipped) where such a binfmt_misc cannot be made.
set -eu
emulator=$(command -v "$1")
shift
case "$(basename "$emulator")" in
  qemu-aarch64-static | qemu-aarch64)
    # The ELF header of an aarch64 executable, as Debian's qemu-user-static registers it.
    magic='\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
    mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff' ;;
  *) echo "under_qemu_binfmt.sh: no binfmt entry known for $emulator" >&2; exit 64 ;;
esac
exec unshare --user --map-root-user --mount --propagation private -- /bin/sh -c '
  binfmt=/proc/sys/fs/binfmt_misc
  if ! mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null; then
    echo "skipped: no binfmt_misc of its own can be mounted here" >&2
    exit 77
  fi
  printf ":runwarden-qemu:M::%s:%s:%s:F" "$0" "$1" "$2" > "$binfmt/register"
  shift 2
  exec "$@"' "$magic" "$mask" "$emulator" "$@"

"""runwarden's processes as /proc shows them (DESIGN.md, "Process structure"): `runwarden run`
is the keeper, the runner's parent; the warden, which does everything else (gRPC, HTTP, the
journal, the drain), is the keeper's other child, running the same binary."""

import os


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def warden_of(keeper):
    """The keeper's child that runs the keeper's own binary: the warden (None if none now)."""
    try:
        binary = os.readlink("/proc/%d/exe" % keeper)
    except OSError:
        return None
    for child in children(keeper):
        try:
            if os.readlink("/proc/%d/exe" % child) == binary:
                return child
        except OSError:
            pass
    return None

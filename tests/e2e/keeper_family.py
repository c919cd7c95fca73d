"""The processes `runwarden run` becomes (src/keeper/keeper.hpp): the keeper, which a test
starts and which is the runner's parent, and the warden, the keeper's child that does all
else and that the keeper starts again whenever it dies. A test that kills "runwarden" with
SIGKILL to check recovery kills the warden: killing the keeper is a machine crash.

The warden is found from the keeper: among the keeper's children
(/proc/KEEPER/task/KEEPER/children; the keeper has one thread), the one whose command line
is the keeper's and whose environment holds the keeper's link (RUNWARDEN_KEEPER_FD,
messages/keeper_protocol.hpp). The runner is a child too, with its own command line."""

import os
import signal
import time

LINK_VARIABLE = b"RUNWARDEN_KEEPER_FD="
POLL_S = 0.01
WAIT_S = 30


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:  # the process ended meanwhile
        return None


def children(pid):
    text = _read("/proc/%d/task/%d/children" % (pid, pid))
    return [int(word) for word in text.split()] if text else []


def _state(pid):
    """The state letter of /proc/PID/stat ("Z" for a zombie), None when gone."""
    text = _read("/proc/%d/stat" % pid)
    return text[text.rindex(b")") + 2:][:1].decode() if text else None


def warden_of(keeper_pid):
    """The keeper's live warden's pid, or None when it has none now."""
    own = _read("/proc/%d/cmdline" % keeper_pid)
    for child in children(keeper_pid):
        environment = _read("/proc/%d/environ" % child) or b""
        if (_read("/proc/%d/cmdline" % child) == own and _state(child) not in (None, "Z")
                and any(v.startswith(LINK_VARIABLE) for v in environment.split(b"\0"))):
            return child
    return None


def wait_for_warden(keeper, other_than=None, timeout=WAIT_S):
    """The pid of the keeper's warden, once it has one that is not `other_than` (the one
    killed before); None when the keeper (a Popen) ended first or `timeout` passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and keeper.poll() is None:
        warden = warden_of(keeper.pid)
        if warden is not None and warden != other_than:
            return warden
        time.sleep(POLL_S)
    return None


def kill_warden(keeper):
    """SIGKILLs the keeper's warden of the moment; its pid, or None when it had none (the
    keeper is ending, or between two wardens)."""
    warden = warden_of(keeper.pid)
    if warden is None:
        return None
    try:
        os.kill(warden, signal.SIGKILL)
    except ProcessLookupError:
        return None
    return warden


def resident_kb(pid):
    """A process's resident memory (VmRSS) in kB."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for pid %d" % pid)

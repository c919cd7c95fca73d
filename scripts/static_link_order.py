#!/usr/bin/python3
"""Writes cmake/static_link_order.txt: the functions the static binary's warden runs, in the
order the linker is to put them first (lld's --symbol-ordering-file, cmake/StaticLink.cmake).

Why: the kernel maps a binary's pages 64 KiB around each page fault (fault-around), so what
the warden holds of its 16 MiB of code is every 64 KiB window that any function it runs lies
in. Laid out as the compiler and the archives left them, its few thousand functions touched
nearly half the code (7.7 MiB). Put together, they fill a fraction of that.

How: the warden runs under valgrind's callgrind, started as `bench/measure_idle.py` starts it
(the metadata service polled every second, the runner's metrics scraped every 5 s), for 15 s,
answers one `ctl status`, and drains on SIGTERM; `ctl status` runs under callgrind too. Every
function either ran (mangled names, first the warden's, then the client's) is written once.
A function renamed or added since only loses its place (lld ignores unknown names), so the
file needs regenerating when the warden's code changes much, not on every change.

  /usr/bin/python3 scripts/static_link_order.py [BUILD_STATIC_DIR]   (default build-static)
Needs valgrind (Debian's package)."""

import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import measure_idle  # noqa: E402
from perf_world import Warden, start_imds  # noqa: E402

OUTPUT = os.path.join(ROOT, "cmake", "static_link_order.txt")
IDLE_S = 15
CALLGRIND = ["valgrind", "--tool=callgrind", "--compress-strings=no", "--compress-pos=no",
             "--dump-line=no", "--dump-instr=no", "--demangle=no"]


def profile(binary, scratch):
    """The callgrind files of the warden (and the keeper) and of one `ctl status`."""
    imds = start_imds()
    try:
        metrics_port = measure_idle.free_port()
        config = measure_idle.aws_config(imds.port, "1s", complete_hooks=False) + (
            '\n[runner]\nmetrics_url = "http://127.0.0.1:%d/metrics"\nmetrics_interval = "5s"\n'
            % metrics_port)
        warden = Warden(binary, config, env=measure_idle.aws_environment(),
                        command=[measure_idle.PYTHON, measure_idle.FAKE_GITLAB_RUNNER,
                                 str(metrics_port), "0", "0"])
        # The keeper execs its program and starts the warden: both are traced, the runner
        # (Python) is not.
        warden.argv = CALLGRIND + ["--trace-children=yes", "--trace-children-skip=*python*",
                                   "--callgrind-out-file=%s/warden.%%p" % scratch] + warden.argv
        warden.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not os.path.exists(warden.socket):
            time.sleep(0.5)
        time.sleep(IDLE_S)
        subprocess.run(CALLGRIND + ["--callgrind-out-file=%s/ctl" % scratch, binary, "ctl",
                                    "--socket", warden.socket, "status"],
                       check=True, capture_output=True)
        if warden.stop() != 0:
            sys.exit("runwarden did not drain cleanly under valgrind; see " + warden.dir)
    finally:
        imds.close()
    files = sorted(os.path.join(scratch, name) for name in os.listdir(scratch))
    # The warden's file is the largest of those the `run` wrote (the keeper's is small).
    runs = [name for name in files if os.path.basename(name).startswith("warden.")]
    return [max(runs, key=os.path.getsize), os.path.join(scratch, "ctl")]


def functions(paths):
    names, seen = [], set()
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                if not line.startswith(("fn=", "cfn=")):
                    continue
                name = re.sub(r"'\d+$", "", line.split("=", 1)[1].strip())
                if name and not name.startswith("0x") and name not in seen:
                    seen.add(name)
                    names.append(name)
    return names


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT,
                                                                                "build-static"))
    with tempfile.TemporaryDirectory(prefix="rw-link-order-") as scratch:
        names = functions(profile(os.path.join(build, "runwarden"), scratch))
    with open(OUTPUT, "w") as f:
        f.write("\n".join(names) + "\n")
    print("%d functions written to %s" % (len(names), OUTPUT))


if __name__ == "__main__":
    main()

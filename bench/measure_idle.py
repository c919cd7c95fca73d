#!/usr/bin/python3
"""Idle cost (issue 9), side by side in one window: runwarden against a bash monitor loop.

(a) `runwarden run` supervising an idle runner (tests/e2e/fake_gitlab_runner.py, no jobs),
    polling a fake IMDS (bench/one_write_imds.py) every second (aws.provider = "aws",
    complete_lifecycle_hooks = false) and scraping the runner's Prometheus metrics every
    5 s (runner.metrics_url, runner.metrics_interval); gRPC on a unix socket, no HTTP.
(b) bench/imds_monitor.sh: every 10 s a fresh IMDSv2 token and one GET of the target
    lifecycle state, with curl, against its own fake IMDS (every 2 s with --quick, so the
    5 s window sees it work).

Both start, run a few seconds (start-up is not idle cost), then the window opens: CPU
seconds are utime + stime + cutime + cstime from /proc/PID/stat (children that ended count:
bash's curls, subshells and sleeps; runwarden's runner is alive throughout, so its own CPU
is not counted, nor is either fake's), scaled to an hour; the /proc figures come in clock
ticks (getconf CLK_TCK, 10 ms). For where runwarden's time goes, each of its threads' CPU
time (schedstat, in nanoseconds) and wake-ups in the window are reported, by thread name.
runwarden is two processes (the keeper, which was started, and the warden, its child): CPU
is both; threads, peak RSS and memory are the warden's, and the keeper's CPU and memory are
shown apart. Peak RSS is the warden's VmHWM at the window's end, reported with smaps' Pss and Anonymous
and the mappings holding most of the Rss (shared libraries' pages count in full). Targets:
runwarden at 1 s <= 1/10 of the bash loop at 10 s; peak RSS <= 16 MiB. The requests each
fake answered in the window are reported, to show both did their work, and after the window
`runwarden ctl status` must show the runner's job count (0), i.e. the metrics were scraped.

    /usr/bin/python3 bench/measure_idle.py [--build DIR] [--quick] [--out FILE]
"""

import glob
import json
import os
import signal
import subprocess
import time

from perf_world import (BENCH, PYTHON, ROOT, Warden, arguments, aws_config, aws_environment,
                        load_average, spawn, start_imds, write_result)
from drain_world import free_port  # tests/e2e, on the path perf_world set
from keeper_family import warden_of  # noqa: E402

FAKE_GITLAB_RUNNER = os.path.join(ROOT, "tests", "e2e", "fake_gitlab_runner.py")
MONITOR = os.path.join(BENCH, "imds_monitor.sh")
WARM_UP_S = 3
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime + cutime + cstime: the process and its waited-for children."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / TICKS_PER_SECOND


def threads_cpu(pid):
    """{thread name: [CPU ms, wake-ups]} from each thread's schedstat (nanoseconds exact)."""
    totals = {}
    for task in glob.glob("/proc/%d/task/*" % pid):
        try:
            with open(task + "/comm") as f:
                name = f.read().strip()
            with open(task + "/schedstat") as f:
                run_ns, _, wakeups = (int(x) for x in f.read().split())
        except FileNotFoundError:  # the thread ended
            continue
        entry = totals.setdefault(name, [0.0, 0])
        entry[0] += run_ns / 1e6
        entry[1] += wakeups
    return totals


def threads_delta(before, after):
    delta = {}
    for name, (ms, wakeups) in after.items():
        ms_before, wakeups_before = before.get(name, (0.0, 0))
        delta[name] = [round(ms - ms_before, 3), wakeups - wakeups_before]
    return delta


def memory(pid):
    """MiB of smaps_rollup's Rss, Pss and Anonymous, and the largest mappings by Rss."""
    with open("/proc/%d/smaps_rollup" % pid) as f:
        rollup = {line.split(":")[0]: int(line.split()[1]) / 1024 for line in f
                  if line.split(":")[0] in ("Rss", "Pss", "Anonymous")}
    by_file, current = {}, None
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            fields = line.split()
            if fields[0].endswith(":"):
                if fields[0] == "Rss:":
                    by_file[current] = by_file.get(current, 0) + int(fields[1]) / 1024
            else:  # a mapping's first line: address range, perms, offset, dev, inode[, path]
                current = os.path.basename(fields[5]) if len(fields) > 5 else "[anonymous]"
    largest = sorted(by_file.items(), key=lambda item: -item[1])[:8]
    return dict(rollup, largest={name: round(mib, 2) for name, mib in largest})


def status_field(pid, name):
    with open("/proc/%d/status" % pid) as f:
        line = next(line for line in f if line.startswith(name + ":"))
    return int(line.split()[1])


def start_warden(binary, imds):
    metrics_port = free_port()
    config = aws_config(imds.port, "1s", complete_hooks=False) + (
        '\n[runner]\nmetrics_url = "http://127.0.0.1:%d/metrics"\nmetrics_interval = "5s"\n'
        % metrics_port)
    warden = Warden(binary, config, env=aws_environment(),
                    command=[PYTHON, FAKE_GITLAB_RUNNER, str(metrics_port), "0", "0"])
    warden.start()
    return warden


class Pid:
    """A process known by its pid only (the warden, which the bench did not start itself)."""

    def __init__(self, pid):
        assert pid, "runwarden has no warden"
        self.pid = pid


def jobs_running(binary, warden):
    done = subprocess.run([binary, "ctl", "--socket", warden.socket, "status", "--json"],
                          capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout.splitlines()[0]).get("jobs_running")


def window(processes, fakes, seconds):
    """CPU seconds of each process, requests of each fake and the first process's threads'
    CPU and wake-ups over `seconds`."""
    cpu_before = [cpu_seconds(p.pid) for p in processes]
    lines_before = [len(f.lines) for f in fakes]
    threads_before = threads_cpu(processes[0].pid)
    time.sleep(seconds)
    threads = threads_delta(threads_before, threads_cpu(processes[0].pid))
    cpu = [cpu_seconds(p.pid) - before for p, before in zip(processes, cpu_before)]
    requests = [len(f.lines) - before for f, before in zip(fakes, lines_before)]
    return cpu, requests, threads


def main():
    args = arguments(__doc__, seconds=(120, 5), monitor_interval=(10, 2))
    warden_imds, monitor_imds = start_imds(), start_imds()
    warden = monitor = None
    try:
        warden = start_warden(args.binary, warden_imds)
        monitor = spawn(["bash", MONITOR, "http://127.0.0.1:%d" % monitor_imds.port,
                         str(args.monitor_interval)],
                        stdout=subprocess.DEVNULL, start_new_session=True)
        time.sleep(WARM_UP_S)
        # runwarden is two processes: the keeper (the one started) and the warden, its child,
        # whose threads do the work; both count, and both are shown.
        big = Pid(warden_of(warden.process.pid))
        load_before = load_average()
        (big_cpu, keeper_cpu, monitor_cpu), (warden_requests, monitor_requests), threads = \
            window([big, warden.process, monitor], [warden_imds, monitor_imds], args.seconds)
        warden_cpu = big_cpu + keeper_cpu
        peak_rss_kib = status_field(big.pid, "VmHWM")
        keeper_rss_kib = status_field(warden.process.pid, "VmHWM")
        memory_mib = memory(big.pid)
        load_after = load_average()
        jobs = jobs_running(args.binary, warden)
        if jobs != 0:
            raise RuntimeError("status shows jobs_running %r: the metrics were not scraped" % jobs)
        per_hour = 3600 / args.seconds
        write_result(args, "idle", {
            "window_s": args.seconds,
            "runwarden_cpu_s": warden_cpu, "runwarden_cpu_s_per_hour": warden_cpu * per_hour,
            "runwarden_imds_requests": warden_requests,
            "runwarden_threads_cpu_s_per_hour":
                sum(ms for ms, _ in threads.values()) / 1000 * per_hour,
            "runwarden_threads_ms_wakeups": threads,
            "runwarden_peak_rss_mib": peak_rss_kib / 1024, "runwarden_memory_mib": memory_mib,
            "keeper_cpu_s": keeper_cpu, "keeper_peak_rss_mib": keeper_rss_kib / 1024,
            "keeper_memory_mib": memory(warden.process.pid),
            "bash_interval_s": args.monitor_interval, "bash_cpu_s": monitor_cpu,
            "bash_cpu_s_per_hour": monitor_cpu * per_hour,
            "bash_imds_requests": monitor_requests,
            "cpu_ratio": warden_cpu / monitor_cpu if monitor_cpu else None,
            "target_cpu_ratio": 0.1, "target_peak_rss_mib": 16,
            "clock_tick_s": 1 / TICKS_PER_SECOND,
            "load_before": load_before, "load_after": load_after})
    finally:
        if monitor is not None:
            os.killpg(monitor.pid, signal.SIGTERM)
            monitor.wait()
        if warden is not None:
            warden.stop()
        warden_imds.close()
        monitor_imds.close()


if __name__ == "__main__":
    main()

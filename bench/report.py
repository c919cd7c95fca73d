#!/usr/bin/python3
"""The performance budget's table (issue 9) from one bench/run_all.sh run, in Markdown.

Usage: report.py RESULTS_DIR (BUILD_DIR/bench-results). Reads the measure_*.py JSON
results, the Google Benchmark JSON files, prometheus_parse_python.py's output and the
simulation's timing (sim.json, written by run_all.sh), and
prints the machine, date, commit and load averages, then one row per measurement: runwarden's
figure, the target, the peer's figure from the same run, and whether the figure is within
its target. The verdicts are for reading; nothing fails on them.
"""

import datetime
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}  # Google Benchmark's time_unit


def load(directory, name):
    with open(os.path.join(directory, name)) as f:
        return json.load(f)


def machine():
    with open("/proc/cpuinfo") as f:
        model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    return "%d × %s" % (os.cpu_count(), model)


def commit():
    done = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=True)
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "src", "actors",
                            "messages"], capture_output=True, text=True, check=True).stdout
    return done.stdout.strip() + (" (with uncommitted changes in src/)" if dirty else "")


def verdict(within):
    return "yes" if within else "**no**"


def ms(value):
    return "%.1f ms" % value if value < 100 else "%.0f ms" % value


def benchmark(directory, program, name):
    runs = load(directory, program + ".json")["benchmarks"]
    return next(run for run in runs if run["name"] == name)


def python_parser(directory):
    """(ms per page, MiB/s) of the best round by CPU time."""
    with open(os.path.join(directory, "prometheus_parse_python.log")) as f:
        found = re.search(r"by cpu time: ([\d.]+) ms, [\d.]+ MB/s, ([\d.]+) MiB/s", f.read())
    return float(found[1]), float(found[2])


def whole_process_rows(directory):
    idle = load(directory, "idle.json")
    reaction = load(directory, "reaction.json")
    completion = load(directory, "completion.json")
    startup = load(directory, "startup.json")
    ratio = idle["cpu_ratio"]
    rows = [
        ("idle CPU: IMDS poll 1 s, metrics scrape 5 s, %d s window" % idle["window_s"],
         "%.2f CPU-s/h (%.2f s; threads' schedstat: %.2f CPU-s/h)" % (
             idle["runwarden_cpu_s_per_hour"], idle["runwarden_cpu_s"],
             idle["runwarden_threads_cpu_s_per_hour"]),
         "≤ 1/10 of the bash loop",
         "bash + curl every %d s: %.2f CPU-s/h (%.2f s); ratio %s" % (
             idle["bash_interval_s"], idle["bash_cpu_s_per_hour"], idle["bash_cpu_s"],
             "%.2f" % ratio if ratio is not None else "—"),
         verdict(ratio is not None and ratio <= idle["target_cpu_ratio"])),
        ("peak RSS (VmHWM) of the same runwarden", "%.1f MiB (Pss %.1f, anonymous %.1f)" % (
            idle["runwarden_peak_rss_mib"], idle["runwarden_memory_mib"]["Pss"],
            idle["runwarden_memory_mib"]["Anonymous"]), "≤ 16 MiB", "—",
         verdict(idle["runwarden_peak_rss_mib"] <= idle["target_peak_rss_mib"]))]
    for run in reaction["runs"]:
        rows.append(("reaction: Terminated in IMDS → SIGQUIT at the runner, poll %d ms, %s, "
                     "%d trials" % (run["poll_interval_ms"], run["imds"], run["n"]),
                     "p50 %s, p99 %s; from the answer: p50 %s, p99 %s" % (
                         ms(run["p50_ms"]), ms(run["p99_ms"]), ms(run["after_answer_p50_ms"]),
                         ms(run["after_answer_p99_ms"])),
                     "p99 ≤ %d ms" % run["target_p99_ms"], "—",
                     verdict(run["p99_ms"] <= run["target_p99_ms"])))
    tmpfs = completion["tmpfs"]
    rows.append(("completion: runner exit → CompleteLifecycleAction at the endpoint, "
                 "%d trials, journal on %s" % (completion["n"], completion["filesystem"]),
                 "p50 %s, p99 %s; journal on %s: p50 %s, p99 %s" % (
                     ms(completion["p50_ms"]), ms(completion["p99_ms"]), tmpfs["filesystem"],
                     ms(tmpfs["p50_ms"]), ms(tmpfs["p99_ms"])),
                 "p99 ≤ 10 ms", "—",
                 verdict(completion["p99_ms"] <= completion["target_p99_ms"])))
    rows.append(("start-up: exec → gRPC health check answered, %d runs" % startup["n"],
                 "median %s, p90 %s; socket accepting: p50 %s" % (
                     ms(startup["p50_ms"]), ms(startup["p90_ms"]),
                     ms(startup["accepting_p50_ms"])),
                 "median ≤ %d ms" % startup["target_ms"], "—",
                 verdict(startup["p50_ms"] <= startup["target_ms"])))
    slowest_command = max(startup["version_p50_ms"], startup["ctl_status_p50_ms"])
    rows.append(("short commands, exec → exit, %d runs each" % startup["n"],
                 "`runwarden version`: p50 %s; `runwarden ctl status`: p50 %s" % (
                     ms(startup["version_p50_ms"]), ms(startup["ctl_status_p50_ms"])),
                 "median ≤ %d ms each" % startup["command_target_ms"], "—",
                 verdict(slowest_command <= startup["command_target_ms"])))
    runs = (startup, completion, reaction, idle)  # run_all.sh's order
    return rows, runs


def micro_rows(directory):
    sim = load(directory, "sim.json")
    parse = benchmark(directory, "prometheus_parse_bench", "parse_page")
    python_ms, python_mib = python_parser(directory)
    parse_ms = parse["cpu_time"] * UNIT_MS[parse["time_unit"]]
    return [
        ("drain machine, a whole life (Google Benchmark)",
         "%.1f M steps/s" % (benchmark(directory, "drain_machine_bench",
                                       "drain_life_cycle")["items_per_second"] / 1e6), "—", "—",
         "—"),
        ("Prometheus text parser, 1 MB page (CPU time)",
         "%s a page, %.0f MiB/s" % (ms(parse_ms), parse["bytes_per_second"] / 2**20),
         "—", "python3-prometheus-client: %s a page, %.1f MiB/s (%.1f× slower)" % (
             ms(python_ms), python_mib, python_ms / parse_ms), "—"),
        ("journal append, no fsync / fsync every record",
         "%.0f k/s / %.0f /s" % (
             benchmark(directory, "journal_append_bench",
                       "append_without_fsync/real_time")["items_per_second"] / 1e3,
             benchmark(directory, "journal_append_bench",
                       "append_fsync_every_record/min_time:2.000/real_time")["items_per_second"]),
         "—", "—", "—"),
        ("SigV4-signed CompleteLifecycleAction",
         "%.0f k calls/s" % (benchmark(directory, "sigv4_bench",
                                       "complete_lifecycle_action_signed")["items_per_second"]
                             / 1e3), "—", "—", "—"),
        ("simulation: `runwarden sim` steady-load (20 instances, 1 h), %d seeds, one process"
         % sim["seeds"], "%.1f seeds/s" % (sim["seeds"] / sim["seconds"]), "—", "—", "—")]


def header(runs):
    built = {run["binary_mtime"] for run in runs}
    lines = ["Machine: %s. Date: %s. Commit: %s; build/runwarden linked at %s." % (
        machine(), datetime.date.today().isoformat(), commit(),
        datetime.datetime.fromtimestamp(min(built)).strftime("%Y-%m-%d %H:%M")),
        "Load average (1, 5, 15 min) at the start of start-up, completion, reaction and idle: "
        + "; ".join(" ".join("%.2f" % x for x in run["load_before"]) for run in runs) + "."]
    if len(built) > 1:
        lines.append("**The binary was rebuilt during the run: figures mix two builds.**")
    if any(run["quick"] for run in runs):
        lines.append("**--quick: a smoke test with tiny counts; the figures mean nothing.**")
    return "\n".join(lines)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    directory = sys.argv[1]
    rows, runs = whole_process_rows(directory)
    rows += micro_rows(directory)
    print(header(runs))
    print()
    print("| measurement | runwarden | target | peer, same run | within target |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

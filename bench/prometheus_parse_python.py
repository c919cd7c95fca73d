#!/usr/bin/python3
"""Parse throughput of Debian's python3-prometheus-client on the page the C++ parser bench
reads, for bench/README.md. Run with Debian's Python (/usr/bin/python3), which has the
package:

    build/bench/prometheus_parse_bench --write-page=/tmp/bench_page.prom
    /usr/bin/python3 bench/prometheus_parse_python.py /tmp/bench_page.prom

It parses the page ROUNDS times (default 5) with text_string_to_metric_families, consuming
every sample, and prints the best round's throughput by CPU time (what Google Benchmark's
bytes_per_second uses) and by wall time, in MB/s (10^6 bytes) and MiB/s (2^20 bytes, the
unit of Google Benchmark's "M/s").
"""

import sys
import time

from prometheus_client.parser import text_string_to_metric_families


def parse(page: str) -> int:
    samples = 0
    for family in text_string_to_metric_families(page):
        samples += len(family.samples)
    return samples


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as file:
        page = file.read()
    rounds = int(sys.argv[2]) if len(sys.argv) == 3 else 5
    size = len(page.encode("utf-8"))
    best_cpu = best_wall = float("inf")
    samples = 0
    for _ in range(rounds):
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        samples = parse(page)
        best_cpu = min(best_cpu, time.process_time() - cpu_start)
        best_wall = min(best_wall, time.perf_counter() - wall_start)
    print(f"page: {size} bytes, {samples} samples")
    for clock, best in (("cpu", best_cpu), ("wall", best_wall)):
        print(f"best of {rounds} by {clock} time: {best * 1000:.1f} ms, "
              f"{size / best / 1e6:.2f} MB/s, {size / best / 2**20:.2f} MiB/s, "
              f"{samples / best / 1e3:.0f} k samples/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

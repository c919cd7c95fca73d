#pragma once
// The page the parser benchmarks read: about 1 MB of /metrics as a busy gitlab-runner host
// would serve it (runner families for many runners, job duration histograms, Go runtime
// summaries and gauges), built the same way on every run, with values from a fixed-seed
// generator. prometheus_parse_bench --write-page=FILE writes it out for the Python comparison
// (bench/prometheus_parse_python.py), so both parse byte-identical input.

#include <string>

namespace runwarden {

std::string prometheus_bench_page();

}  // namespace runwarden

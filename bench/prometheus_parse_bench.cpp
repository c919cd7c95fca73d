// How fast the Prometheus text parser reads a large page (bench/prometheus_bench_page.hpp):
// bytes per second and samples per second, alone and with the gitlab-runner load derived
// from the result. `--write-page=FILE` writes the page out and exits, for the Python
// comparison in bench/prometheus_parse_python.py (see bench/README.md).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string_view>

#include "bench/prometheus_bench_page.hpp"
#include "src/scrape/exposition_parser.hpp"
#include "src/scrape/gitlab_runner_load.hpp"

namespace {

using namespace runwarden;

std::size_t sample_count(const scraped_page& page) {
  std::size_t samples = 0;
  for (const scraped_family& family : page.families) samples += family.samples.size();
  return samples;
}

void parse_page(benchmark::State& state) {
  const std::string page = prometheus_bench_page();
  std::size_t samples = 0;
  for (auto _ : state) {
    exposition_result result = parse_exposition_text(page);
    if (!result.page) state.SkipWithError(describe(result.error).c_str());
    samples = sample_count(*result.page);
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * page.size()));
  state.counters["page_bytes"] = static_cast<double>(page.size());
  state.counters["samples"] = static_cast<double>(samples);
  state.counters["samples_per_second"] = benchmark::Counter(
      static_cast<double>(samples), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(parse_page)->Unit(benchmark::kMillisecond);

void parse_page_and_derive_load(benchmark::State& state) {
  const std::string page = prometheus_bench_page();
  for (auto _ : state) {
    const exposition_result result = parse_exposition_text(page);
    if (!result.page) state.SkipWithError(describe(result.error).c_str());
    benchmark::DoNotOptimize(derive_gitlab_runner_load(*result.page));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * page.size()));
}
BENCHMARK(parse_page_and_derive_load)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view write_flag = "--write-page=";
  if (argc == 2 && std::string_view{argv[1]}.starts_with(write_flag)) {
    const std::string path{std::string_view{argv[1]}.substr(write_flag.size())};
    std::ofstream file{path, std::ios::binary};
    file << prometheus_bench_page();
    if (!file) {
      std::cerr << "cannot write " << path << "\n";
      return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return EXIT_FAILURE;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return EXIT_SUCCESS;
}

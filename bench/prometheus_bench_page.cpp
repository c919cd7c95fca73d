// See prometheus_bench_page.hpp.
#include "bench/prometheus_bench_page.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <string_view>

namespace runwarden {
namespace {

constexpr int runner_count = 120;
constexpr std::size_t page_bytes_target = 1024 * 1024;

// A fixed-seed generator (SplitMix64), so the page is the same on every machine.
class value_source {
 public:
  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t bound) { return next() % bound; }

 private:
  std::uint64_t state_ = 42;
};

void append_number(std::string& page, double value) {
  std::array<char, 32> text{};
  const auto result = std::to_chars(text.data(), text.data() + text.size(), value);
  page.append(text.data(), result.ptr);
}

void append_header(std::string& page, std::string_view name, std::string_view type,
                   std::string_view help) {
  page.append("# HELP ").append(name).append(" ").append(help).append("\n");
  page.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

std::string runner_labels(int runner) {
  const std::string id = std::to_string(runner);
  return "runner=\"xP9sK" + id + "\",runner_name=\"ci-docker-" + id +
         "\",system_id=\"s_0e6850b2bce1\"";
}

void append_runner_families(std::string& page, value_source& values) {
  constexpr std::array<std::string_view, 4> endpoints{"request_job", "update_job", "patch_trace",
                                                      "register_runner"};
  constexpr std::array<std::string_view, 4> statuses{"200", "201", "204", "500"};
  append_header(page, "gitlab_runner_api_request_statuses_total", "counter",
                "The total number of api requests, partitioned by runner, system_id, "
                "endpoint, status and method.");
  for (int runner = 0; runner < runner_count; ++runner)
    for (const std::string_view endpoint : endpoints)
      for (const std::string_view status : statuses) {
        page.append("gitlab_runner_api_request_statuses_total{endpoint=\"").append(endpoint);
        page.append("\",method=\"POST\",").append(runner_labels(runner));
        page.append(",status=\"").append(status).append("\"} ");
        append_number(page, static_cast<double>(values.below(100000)));
        page += '\n';
      }
  append_header(page, "gitlab_runner_jobs", "gauge", "The current number of running builds.");
  for (int runner = 0; runner < runner_count; ++runner) {
    page.append("gitlab_runner_jobs{executor_stage=\"docker_run\",").append(runner_labels(runner));
    page.append(",stage=\"step_script\",state=\"running\"} ");
    append_number(page, static_cast<double>(values.below(4)));
    page += '\n';
  }
}

void append_histograms(std::string& page, value_source& values) {
  constexpr std::array<std::string_view, 12> bounds{
      "30", "60", "300", "600", "1800", "3600", "7200", "10800", "18000", "36000", "72000", "+Inf"};
  append_header(page, "gitlab_runner_job_duration_seconds", "histogram",
                "Histogram of job durations");
  for (int runner = 0; runner < runner_count; ++runner) {
    double cumulative = 0;
    for (const std::string_view bound : bounds) {
      cumulative += static_cast<double>(values.below(50));
      page.append("gitlab_runner_job_duration_seconds_bucket{le=\"").append(bound).append("\",");
      page.append(runner_labels(runner)).append("} ");
      append_number(page, cumulative);
      page += '\n';
    }
    page.append("gitlab_runner_job_duration_seconds_sum{").append(runner_labels(runner));
    page.append("} ");
    append_number(page, cumulative * 812.25 + static_cast<double>(values.below(1000)) / 7);
    page.append("\ngitlab_runner_job_duration_seconds_count{").append(runner_labels(runner));
    page.append("} ");
    append_number(page, cumulative);
    page += '\n';
  }
}

// Go runtime families, repeated per process label so the page reaches its size.
void append_go_runtime(std::string& page, value_source& values, int process) {
  const std::string instance = "instance=\"worker-" + std::to_string(process) + "\"";
  append_header(page, "go_gc_duration_seconds_" + std::to_string(process), "summary",
                "A summary of the pause duration of garbage collection cycles.");
  for (const std::string_view quantile : {"0", "0.25", "0.5", "0.75", "1"}) {
    page.append("go_gc_duration_seconds_").append(std::to_string(process));
    page.append("{").append(instance).append(",quantile=\"").append(quantile).append("\"} ");
    append_number(page, static_cast<double>(values.below(1000000)) * 1e-9);
    page += '\n';
  }
  for (const std::string_view suffix : {"_sum ", "_count "}) {
    page.append("go_gc_duration_seconds_").append(std::to_string(process));
    page.append(suffix.substr(0, suffix.size() - 1)).append("{").append(instance).append("} ");
    append_number(page, static_cast<double>(values.below(100000)) / 3);
    page += '\n';
  }
  for (const std::string_view gauge : {"go_goroutines", "go_threads", "go_memstats_alloc_bytes",
                                       "go_memstats_heap_inuse_bytes", "process_open_fds"}) {
    page.append(gauge).append("{").append(instance).append("} ");
    append_number(page, static_cast<double>(values.next() % 100000000) * 1.5);
    page += '\n';
  }
}

}  // namespace

std::string prometheus_bench_page() {
  std::string page;
  page.reserve(page_bytes_target + 64 * 1024);
  value_source values;
  append_runner_families(page, values);
  append_histograms(page, values);
  for (int process = 0; page.size() < page_bytes_target; ++process)
    append_go_runtime(page, values, process);
  return page;
}

}  // namespace runwarden

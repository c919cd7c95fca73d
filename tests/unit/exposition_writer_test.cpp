// The Prometheus text writer, checked on exact output: each case builds families by hand and
// compares the whole text, so a stray space or a missing newline fails here before a
// scraper sees it. Number formatting is checked for round trips on awkward doubles.
#include <catch2/catch.hpp>

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include "src/telemetry/exposition_writer.hpp"

namespace {

using namespace runwarden;

metric_family counter(std::string name, std::string help) {
  return metric_family{std::move(name), std::move(help), metric_type::counter, {}, {}};
}

}  // namespace

TEST_CASE("a counter and a gauge print HELP, TYPE and one line per series") {
  auto requests = counter("demo_requests_total", "Requests served.");
  requests.samples.push_back({{{"code", "200"}, {"path", "/metrics"}}, 3});
  requests.samples.push_back({{{"code", "404"}, {"path", "/"}}, 0});
  metric_family temperature{
      "demo_temperature_celsius", "Current temperature.", metric_type::gauge, {{{}, -1.5}}, {}};
  const std::vector<metric_family> families{requests, temperature};
  CHECK(write_exposition(families) ==
        "# HELP demo_requests_total Requests served.\n"
        "# TYPE demo_requests_total counter\n"
        "demo_requests_total{code=\"200\",path=\"/metrics\"} 3\n"
        "demo_requests_total{code=\"404\",path=\"/\"} 0\n"
        "# HELP demo_temperature_celsius Current temperature.\n"
        "# TYPE demo_temperature_celsius gauge\n"
        "demo_temperature_celsius -1.5\n");
}

TEST_CASE("a histogram prints cumulative buckets, +Inf, _sum and _count") {
  auto latency = make_histogram({0.5, 1, 2.5});
  for (const double value : {0.25, 0.5, 0.75, 2.0, 9.0}) observe(latency, value);
  metric_family family{"demo_latency_seconds",
                       "Latency.",
                       metric_type::histogram,
                       {},
                       {{{{"path", "/x"}}, latency}}};
  const std::vector<metric_family> families{family};
  CHECK(write_exposition(families) ==
        "# HELP demo_latency_seconds Latency.\n"
        "# TYPE demo_latency_seconds histogram\n"
        "demo_latency_seconds_bucket{path=\"/x\",le=\"0.5\"} 2\n"
        "demo_latency_seconds_bucket{path=\"/x\",le=\"1\"} 3\n"
        "demo_latency_seconds_bucket{path=\"/x\",le=\"2.5\"} 4\n"
        "demo_latency_seconds_bucket{path=\"/x\",le=\"+Inf\"} 5\n"
        "demo_latency_seconds_sum{path=\"/x\"} 12.5\n"
        "demo_latency_seconds_count{path=\"/x\"} 5\n");
}

TEST_CASE("an empty histogram without labels still has every bucket") {
  metric_family family{
      "demo_wait_seconds", "Wait.", metric_type::histogram, {}, {{{}, make_histogram({1, 10})}}};
  const std::vector<metric_family> families{family};
  CHECK(write_exposition(families) ==
        "# HELP demo_wait_seconds Wait.\n"
        "# TYPE demo_wait_seconds histogram\n"
        "demo_wait_seconds_bucket{le=\"1\"} 0\n"
        "demo_wait_seconds_bucket{le=\"10\"} 0\n"
        "demo_wait_seconds_bucket{le=\"+Inf\"} 0\n"
        "demo_wait_seconds_sum 0\n"
        "demo_wait_seconds_count 0\n");
}

TEST_CASE("label values escape backslash, double quote and newline, and nothing else") {
  CHECK(escape_label_value(R"(C:\dir)") == R"(C:\\dir)");
  CHECK(escape_label_value("say \"hi\"") == R"(say \"hi\")");
  CHECK(escape_label_value("two\nlines") == R"(two\nlines)");
  CHECK(escape_label_value("tab\tand ünïcode") == "tab\tand ünïcode");
  auto family = counter("demo_total", "Demo.");
  family.samples.push_back({{{"v", "a\\b\"c\nd"}}, 1});
  const std::vector<metric_family> families{family};
  CHECK(write_exposition(families) ==
        "# HELP demo_total Demo.\n"
        "# TYPE demo_total counter\n"
        "demo_total{v=\"a\\\\b\\\"c\\nd\"} 1\n");
}

TEST_CASE("help text escapes backslash and newline but keeps quotes") {
  CHECK(escape_help("a \"b\" \\ c\nd") == "a \"b\" \\\\ c\\nd");
}

TEST_CASE("sample values print in the shortest form, with Prometheus's special values") {
  CHECK(format_sample_value(0) == "0");
  CHECK(format_sample_value(3) == "3");
  CHECK(format_sample_value(0.1) == "0.1");
  CHECK(format_sample_value(-2.25) == "-2.25");
  CHECK(format_sample_value(1e21) == "1e+21");
  CHECK(format_sample_value(1.5e-7) == "1.5e-07");
  CHECK(format_sample_value(1700000000.5) == "1700000000.5");
  CHECK(format_sample_value(std::numeric_limits<double>::infinity()) == "+Inf");
  CHECK(format_sample_value(-std::numeric_limits<double>::infinity()) == "-Inf");
  CHECK(format_sample_value(std::numeric_limits<double>::quiet_NaN()) == "NaN");
}

TEST_CASE("sample values parse back to the same double") {
  const std::vector<double> values{0.1 + 0.2,
                                   1.0 / 3.0,
                                   86400.000001,
                                   9007199254740993.0,
                                   std::numeric_limits<double>::min(),
                                   std::numeric_limits<double>::denorm_min(),
                                   std::numeric_limits<double>::max(),
                                   -std::numeric_limits<double>::epsilon()};
  for (const double value : values) {
    const auto text = format_sample_value(value);
    double parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    INFO(text);
    CHECK(error == std::errc{});
    CHECK(end == text.data() + text.size());
    CHECK(parsed == value);
  }
}

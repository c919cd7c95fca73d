#pragma once
// A metrics page as scraped from a runner: families of samples, read from Prometheus text
// format 0.0.4 by parse_exposition_text(). These are plain values that own their strings, so
// a page outlives the buffer it was parsed from. The names carry `scraped_` to keep them apart
// from runwarden's own /metrics vocabulary in src/telemetry/metric_family.hpp.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden {

enum class scraped_type : std::uint8_t { counter, gauge, histogram, summary, untyped };

// "counter", "gauge", ... as the TYPE line spells them.
std::string_view name_of(scraped_type type);

struct scraped_label {
  std::string name;
  std::string value;  // unescaped, valid UTF-8

  friend bool operator==(const scraped_label&, const scraped_label&) = default;
};

struct scraped_sample {
  std::string name;  // the full sample name: "x_bucket", "x_sum", "x_count" or the family's
  std::vector<scraped_label> labels;  // sorted by name; `le` and `quantile` included
  double value = 0;
  std::optional<std::int64_t> timestamp_ms;
};

struct scraped_family {
  std::string name;
  scraped_type type = scraped_type::untyped;
  std::string help;  // unescaped; empty when the page has no HELP line for the family
  std::vector<scraped_sample> samples;  // in page order, never empty
};

struct scraped_page {
  std::vector<scraped_family> families;  // in order of first mention, names unique
};

// The family called `name`, or nullptr.
const scraped_family* find_family(const scraped_page& page, std::string_view name);

// The value of the label called `name`, or nullopt.
std::optional<std::string_view> label_value(const scraped_sample& sample, std::string_view name);

}  // namespace runwarden

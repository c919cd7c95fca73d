#pragma once
// What /metrics shows, as plain values: families of samples with their help text and type.
// The registry builds these under its lock and the exposition writer prints them, so the
// writer needs no knowledge of the drain and the registry none of the text format.

#include <cstdint>
#include <string>
#include <vector>

#include "src/telemetry/histogram_value.hpp"

namespace runwarden {

enum class metric_type : std::uint8_t { counter, gauge, histogram };

struct metric_label {
  std::string name;
  std::string value;
};

using label_set = std::vector<metric_label>;

struct metric_sample {
  label_set labels;
  double value = 0;
};

struct histogram_sample {
  label_set labels;  // never `le`: the writer adds it per bucket
  histogram_value histogram;
};

struct metric_family {
  std::string name;  // counters end in _total; units in the name (seconds, bytes)
  std::string help;
  metric_type type = metric_type::gauge;
  std::vector<metric_sample> samples;        // counters and gauges
  std::vector<histogram_sample> histograms;  // histograms
};

}  // namespace runwarden

#pragma once
// A histogram with fixed buckets, as Prometheus exposes one: bucket bounds chosen once, a
// count per bucket, the sum and the count of all observations. Fixed bounds keep memory and
// the number of series bounded however many values arrive.

#include <cstdint>
#include <vector>

namespace runwarden {

struct histogram_value {
  std::vector<double> upper_bounds;          // finite, strictly ascending
  std::vector<std::uint64_t> bucket_counts;  // per bucket, not cumulative; same size
  double sum = 0;
  std::uint64_t count = 0;  // observations above the last bound count only here (+Inf)
};

// An empty histogram with these bounds.
histogram_value make_histogram(std::vector<double> upper_bounds);

// Counts `value` in the first bucket whose bound is at least `value` (Prometheus's `le`).
void observe(histogram_value& histogram, double value);

}  // namespace runwarden

// See histogram_value.hpp.
#include "src/telemetry/histogram_value.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

namespace runwarden {

histogram_value make_histogram(std::vector<double> upper_bounds) {
  assert(!upper_bounds.empty());
  assert(std::adjacent_find(upper_bounds.begin(), upper_bounds.end(),
                            [](double a, double b) { return a >= b; }) == upper_bounds.end());
  assert(std::all_of(upper_bounds.begin(), upper_bounds.end(),
                     [](double bound) { return std::isfinite(bound); }));
  histogram_value result;
  result.bucket_counts.assign(upper_bounds.size(), 0);
  result.upper_bounds = std::move(upper_bounds);
  return result;
}

void observe(histogram_value& histogram, double value) {
  assert(histogram.bucket_counts.size() == histogram.upper_bounds.size());
  const auto bound =
      std::lower_bound(histogram.upper_bounds.begin(), histogram.upper_bounds.end(), value);
  if (bound != histogram.upper_bounds.end())
    ++histogram.bucket_counts[static_cast<std::size_t>(bound - histogram.upper_bounds.begin())];
  histogram.sum += value;
  ++histogram.count;
}

}  // namespace runwarden

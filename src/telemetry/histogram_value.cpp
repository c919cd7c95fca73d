// See histogram_value.hpp.
#include "src/telemetry/histogram_value.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "src/util/assert.hpp"

namespace runwarden {

histogram_value make_histogram(std::vector<double> upper_bounds) {
  RUNWARDEN_ASSERT(!upper_bounds.empty());
  RUNWARDEN_ASSERT(std::adjacent_find(upper_bounds.begin(), upper_bounds.end(),
                                      [](double a, double b) { return a >= b; }) ==
                   upper_bounds.end());
  RUNWARDEN_ASSERT(std::all_of(upper_bounds.begin(), upper_bounds.end(),
                               [](double bound) { return std::isfinite(bound); }));
  histogram_value result;
  result.bucket_counts.assign(upper_bounds.size(), 0);
  result.upper_bounds = std::move(upper_bounds);
  return result;
}

void observe(histogram_value& histogram, double value) {
  RUNWARDEN_ASSERT(histogram.bucket_counts.size() == histogram.upper_bounds.size());
  const auto bound =
      std::lower_bound(histogram.upper_bounds.begin(), histogram.upper_bounds.end(), value);
  if (bound != histogram.upper_bounds.end())
    ++histogram.bucket_counts[static_cast<std::size_t>(bound - histogram.upper_bounds.begin())];
  histogram.sum += value;
  ++histogram.count;
}

}  // namespace runwarden

// See runner_capacity.hpp.
#include "src/scrape/runner_capacity.hpp"

#include <algorithm>

namespace runwarden {

std::optional<std::uint64_t> runner_capacity(std::optional<std::uint64_t> concurrent,
                                             std::span<const std::uint64_t> jobs_max_per_entry) {
  std::optional<std::uint64_t> limits_total;
  if (!jobs_max_per_entry.empty()) {
    limits_total = 0;
    for (const std::uint64_t jobs_max : jobs_max_per_entry) {
      if (jobs_max == 0) {
        limits_total.reset();
        break;
      }
      *limits_total += jobs_max;
    }
  }
  if (concurrent && limits_total) return std::min(*concurrent, *limits_total);
  return concurrent ? concurrent : limits_total;
}

}  // namespace runwarden

// See capped_backoff.hpp. The doubling stops at the cap, so a huge attempt count never
// overflows the duration.
#include "src/util/capped_backoff.hpp"

#include <algorithm>

#include "src/util/assert.hpp"

namespace runwarden {

std::chrono::nanoseconds capped_backoff(std::chrono::nanoseconds initial,
                                        std::chrono::nanoseconds cap, std::uint32_t attempts_made,
                                        double jitter, double unit_random) {
  RUNWARDEN_ASSERT(attempts_made >= 1);
  RUNWARDEN_ASSERT(jitter >= 0.0 && jitter <= 1.0);
  RUNWARDEN_ASSERT(unit_random >= 0.0 && unit_random < 1.0);
  cap = std::max(cap, initial);
  std::chrono::nanoseconds delay = initial;
  for (std::uint32_t doubling = 1; doubling < attempts_made && delay < cap; ++doubling) delay *= 2;
  delay = std::min(delay, cap);
  const double shortened = static_cast<double>(delay.count()) * (1.0 - jitter * unit_random);
  return std::chrono::nanoseconds{static_cast<std::chrono::nanoseconds::rep>(shortened)};
}

}  // namespace runwarden

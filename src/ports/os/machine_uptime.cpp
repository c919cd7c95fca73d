// See machine_uptime.hpp.
#include "src/ports/os/machine_uptime.hpp"

#include <time.h>

namespace runwarden {

std::optional<std::chrono::milliseconds> machine_uptime() {
  struct timespec now {};
  if (::clock_gettime(CLOCK_BOOTTIME, &now) != 0) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::seconds{now.tv_sec} + std::chrono::nanoseconds{now.tv_nsec});
}

}  // namespace runwarden

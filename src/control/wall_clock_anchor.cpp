// See wall_clock_anchor.hpp. Callers on several threads may race to adopt a new offset;
// any of their measurements is as good as another, so plain atomic stores suffice.
#include "src/control/wall_clock_anchor.hpp"

namespace runwarden {

std::chrono::system_clock::time_point wall_clock_anchor::wall_time_of(instant at) {
  const auto steady_now = std::chrono::steady_clock::now().time_since_epoch();
  return wall_time_of(at, std::chrono::duration_cast<instant>(steady_now),
                      std::chrono::system_clock::now());
}

std::chrono::system_clock::time_point wall_clock_anchor::wall_time_of(
    instant at, instant steady_now, std::chrono::system_clock::time_point wall_now) {
  const auto wall_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall_now.time_since_epoch());
  const std::int64_t measured = (wall_ns - steady_now).count();
  const std::int64_t tolerance_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(step_tolerance).count();
  std::int64_t offset = offset_ns_.load();
  if (!measured_.load() || measured - offset > tolerance_ns || offset - measured > tolerance_ns) {
    offset = measured;
    offset_ns_.store(offset);
    measured_.store(true);
  }
  return std::chrono::system_clock::time_point{
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          at + std::chrono::nanoseconds{offset})};
}

}  // namespace runwarden

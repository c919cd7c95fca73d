#pragma once
// Turns instants of the actor clock (CAF's steady clock in production) into wall-clock time
// for the control API, with one offset for every answer: converting each answer against
// its own reading of both clocks would show the same instant (a drain's start, say) a few
// microseconds apart in two answers, and a client comparing them would see it move. The
// offset is measured again on every use but adopted only when the wall clock has stepped
// (NTP setting it, an operator changing it) by more than step_tolerance.

#include <atomic>
#include <chrono>
#include <cstdint>

#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

class wall_clock_anchor {
 public:
  // Reading the two clocks one after the other differs by far less than this.
  static constexpr std::chrono::milliseconds step_tolerance{100};

  // The wall-clock time of `at`, an instant of std::chrono::steady_clock.
  std::chrono::system_clock::time_point wall_time_of(instant at);

  // The same, with both clocks read by the caller (one after the other).
  std::chrono::system_clock::time_point wall_time_of(
      instant at, instant steady_now, std::chrono::system_clock::time_point wall_now);

 private:
  std::atomic<std::int64_t> offset_ns_{0};  // wall minus steady
  std::atomic<bool> measured_{false};
};

}  // namespace runwarden

#pragma once
// A log line that anyone on the network can cause (a refused login) must not let them fill
// the disk: at most one line per window, and the next line written says how many were left
// out in between. Pure: the caller passes the time, so tests need no clock.

#include <chrono>
#include <cstdint>
#include <optional>

namespace runwarden {

class log_rate_limit {
 public:
  using clock = std::chrono::steady_clock;

  explicit log_rate_limit(std::chrono::milliseconds window) : window_{window} {}

  // Nullopt when this line is to be left out (and is counted); otherwise it may be written,
  // and the value is how many were left out since the last line written.
  std::optional<std::uint64_t> admit(clock::time_point now);

 private:
  std::chrono::milliseconds window_;
  std::optional<clock::time_point> last_written_;
  std::uint64_t left_out_ = 0;
};

}  // namespace runwarden

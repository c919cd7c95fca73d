// See log_rate_limit.hpp.
#include "src/util/log_rate_limit.hpp"

namespace runwarden {

std::optional<std::uint64_t> log_rate_limit::admit(clock::time_point now) {
  if (last_written_ && now - *last_written_ < window_) {
    ++left_out_;
    return std::nullopt;
  }
  last_written_ = now;
  const auto left_out = left_out_;
  left_out_ = 0;
  return left_out;
}

}  // namespace runwarden

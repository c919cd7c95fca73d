#pragma once
// What a shutdown request from outside may ask of the drain machine, whichever way it comes:
// the gRPC services (src/control) and an embedding host (include/runwarden) check the same
// rules before anything reaches the warden. The reason is logged, journaled and sent in the
// webhook, so it is bounded and one line; a deadline is relative to now, and a negative one
// would kill jobs at once, so it is zero or more and at most 30 days.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::size_t reason_bytes_max = 1024;
inline constexpr std::chrono::hours shutdown_deadline_max{24 * 30};

// Each says what is wrong, for the caller to read; nullopt when nothing is.
std::optional<std::string> reason_problem(std::string_view reason);
std::string deadline_out_of_bounds_text(bool negative);

// Compared in the request's own unit, into which the bound converts without overflow;
// converting the request to nanoseconds first would overflow for most of its range.
template <class Rep, class Period>
std::optional<std::string> relative_deadline_problem(std::chrono::duration<Rep, Period> relative) {
  if (relative < relative.zero()) return deadline_out_of_bounds_text(true);
  if (relative > shutdown_deadline_max) return deadline_out_of_bounds_text(false);
  return std::nullopt;
}

}  // namespace runwarden

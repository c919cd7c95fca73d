#pragma once
// The limits of the time runwarden counts in. Every duration and deadline is a 64-bit count
// of nanoseconds (std::chrono::nanoseconds, the clocks' ticks), which holds about 292 years,
// and converting a longer value to it, or adding one to a clock reading, overflows. So a
// value read from outside (a duration in a config file or a flag, gitlab-runner's
// shutdown_timeout, an Auto Scaling hook's timeouts, a server's Retry-After, a date) is
// checked against these where it is read, never converted first.

#include <chrono>

namespace runwarden {

// The longest duration runwarden takes anywhere: ten years. Longer than any drain, timeout
// or interval has a use for, and short enough that a deadline adding several of them to a
// clock reading still fits.
inline constexpr std::chrono::hours duration_max{24 * 365 * 10};
inline constexpr std::chrono::seconds duration_max_seconds{duration_max};
inline constexpr const char* duration_max_text = "87600h (ten years)";

// The last whole second system_clock holds with a fraction added (2262-04-11): a date read
// from outside beyond it is refused before its conversion would overflow.
inline constexpr std::chrono::sys_seconds latest_system_second =
    std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::time_point::max()) -
    std::chrono::seconds{1};

}  // namespace runwarden

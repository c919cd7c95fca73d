#pragma once
// Durations written the way gitlab-runner's config.toml writes them, in the syntax of Go's
// time.ParseDuration: "300ms", "1.5s", "5m", "1h30m", or a bare "0". People who run CI
// fleets already know this spelling. Only ms, s, m and h are accepted, because runwarden
// counts time in milliseconds; a finer value is an error rather than silently rounded.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

struct duration_parse_result {
  std::optional<std::chrono::milliseconds> value;  // set exactly when error is empty
  std::string error;  // what is wrong, quoting the text, e.g. `missing unit in "10"`
};

// Accepts a sequence of <decimal number><unit> terms; rejects empty, negative and
// sub-millisecond values, and values longer than duration_max (src/util/time_bounds.hpp), which
// runwarden's nanosecond clocks could not add to a deadline.
duration_parse_result parse_duration(std::string_view text);

// The shortest text parse_duration reads back as the same value: "1h30m", "1.5s", "250ms",
// "0s". Negative values get a leading '-' (which parse_duration rejects).
std::string format_duration(std::chrono::milliseconds duration);

}  // namespace runwarden

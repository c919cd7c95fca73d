#pragma once
// Wall-clock times as RFC 3339 text in UTC with milliseconds ("2024-05-01T12:00:00.250Z"),
// the form webhooks and JSON status output use, and the conversion from the steady instants
// the drain machine counts in. Only edges (webhooks, printing) call these.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/util/machine_time.hpp"

namespace runwarden {

// A UTC time in ISO 8601's extended layout ("2024-05-01T12:00:00Z", RFC 3339's) or its basic
// one ("20240501T120000Z", SigV4's X-Amz-Date), in whole seconds or with milliseconds. The one
// formatter of the tree: gmtime_r, never the local zone; a fraction is truncated, not rounded.
enum class utc_precision : std::uint8_t { seconds, milliseconds };
enum class utc_layout : std::uint8_t { extended, basic };
std::string format_utc(std::chrono::system_clock::time_point time, utc_precision precision,
                       utc_layout layout = utc_layout::extended);

// RFC 3339 with milliseconds, as webhooks and status output write times.
std::string format_rfc3339_utc(std::chrono::system_clock::time_point time);

// Reads "2024-05-01T12:00:00Z", with optional fractional seconds and a "Z" or "+HH:MM" /
// "-HH:MM" offset, as cloud APIs write times (EC2 spot notices, say). nullopt when the text
// is anything else, including a date that does not exist.
std::optional<std::chrono::system_clock::time_point> parse_rfc3339(std::string_view text);

// The wall time of `moment`, given that `reference` (same clock) was `reference_wall`.
std::chrono::system_clock::time_point wall_time_of(
    instant moment, instant reference, std::chrono::system_clock::time_point reference_wall);

}  // namespace runwarden

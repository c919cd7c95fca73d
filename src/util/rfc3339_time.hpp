#pragma once
// Wall-clock times as RFC 3339 text in UTC with milliseconds ("2024-05-01T12:00:00.250Z"),
// the form webhooks and JSON status output use, and the conversion from the steady instants
// the drain machine counts in. Only edges (webhooks, printing) call these.

#include <chrono>
#include <string>

#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

std::string format_rfc3339_utc(std::chrono::system_clock::time_point time);

// The wall time of `moment`, given that `reference` (same clock) was `reference_wall`.
std::chrono::system_clock::time_point wall_time_of(instant moment, instant reference,
                                                   std::chrono::system_clock::time_point
                                                       reference_wall);

}  // namespace runwarden

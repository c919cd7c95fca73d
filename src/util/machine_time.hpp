#pragma once
// The time words of the pure machines (drain, supervision, scaling, ...), which never read a
// clock: "now" comes in as an argument, an instant, and waits go out as durations.

#include <chrono>

namespace runwarden {

// Time as the machine sees it: a count since the epoch of whichever clock drives it (CAF's
// steady clock in production, virtual time in tests and the simulation).
using duration = std::chrono::nanoseconds;
using instant = std::chrono::nanoseconds;

}  // namespace runwarden

#pragma once
// A lifecycle trigger as the drain machine's shutdown_requested event. The trigger's
// deadline is wall-clock time (a spot notice names one); the machine counts instants of its
// own clock, so the deadline moves over by the difference between two readings of the two
// clocks taken together (wall_clock_anchor gives a steady pair).

#include <chrono>

#include "src/aws/imds/lifecycle_watch.hpp"
#include "src/drain/drain_machine.hpp"

namespace runwarden {

shutdown_requested as_shutdown_request(const lifecycle_trigger& trigger, instant now,
                                       std::chrono::system_clock::time_point wall_now);

}  // namespace runwarden

#pragma once
// The wind-down, once the drain ended the runner: unregister from the CI server, wait for
// the lifecycle client's look for a hook, complete the lifecycle action, then gone. Each
// step is level-triggered: continue_wind_down looks at what is done and starts the first
// step that is not, so an answer arriving late or twice never skips or repeats a step.

#include <string>

#include "src/drain/drain_step.hpp"

namespace runwarden {

// The drain ended the runner: wind down, then gone.
void runner_stopped(drain_step& step, const exit_status& status);
void continue_wind_down(drain_step& step);
// The runner is gone and the drain is still winding down (the table's winding_down phase).
bool winding_down(const drain_step& step);
// The operator's "now" after the runner is gone: the waits that remain are given up.
void stop_waiting(drain_step& step, const std::string& why);

}  // namespace runwarden

#pragma once
// The pure parts of restarting a runner: whether its exit calls for a restart (OTP restart
// types), how long to wait (exponential backoff with jitter), and whether the restart budget
// still allows one. "Now" is always an argument, as in OTP's add_restart.

#include <chrono>
#include <cstddef>
#include <vector>

#include "src/runner/exit_status.hpp"
#include "src/supervision/restart_policy.hpp"
#include "src/util/machine_time.hpp"

namespace runwarden {

bool exit_calls_for_restart(restart_type type, const exit_status& status);

// The delay before restart number `restarts_in_window + 1`: initial * 2^restarts_in_window,
// capped at the maximum, then shortened by up to `jitter` of itself. `unit_random` is a
// draw from [0, 1) supplied by the caller so that the function stays deterministic.
duration backoff_delay(const restart_settings& settings, std::size_t restarts_in_window,
                       double unit_random);

// Drops restarts older than the budget window; what remains is what counts against it.
void forget_restarts_outside_window(std::vector<instant>& restarts, duration window, instant now);

bool restart_budget_allows_one_more(const restart_settings& settings,
                                    const std::vector<instant>& restarts_in_window);

}  // namespace runwarden

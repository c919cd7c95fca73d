#pragma once
// The triggers of a drain: a shutdown requested (an operator's signal, the control API, a
// cloud's notice, the scaler's idle scale-in) or a forceful one. The first begins the drain;
// a later one never restarts it, it may only tighten the deadline, or mean "now".

#include "src/drain/drain_step.hpp"

namespace runwarden {

void begin_drain(drain_step& step, const shutdown_requested& event);
// A trigger during a drain never restarts it. It may tighten the deadline, and a second
// SIGTERM or SIGINT after an operator signal means "now" (as Ctrl-C twice does).
void join_drain(drain_step& step, const shutdown_requested& event);

// Cells of the table.
void begin_requested_drain(drain_step& step, const shutdown_requested& event);
void join_requested_drain(drain_step& step, const shutdown_requested& event);
void begin_forceful_drain(drain_step& step, const forceful_shutdown_requested& event);
void force_once_spawned(drain_step& step, const forceful_shutdown_requested& event);
void force_now(drain_step& step, const forceful_shutdown_requested& event);
void force_end_of_waits(drain_step& step, const forceful_shutdown_requested& event);

}  // namespace runwarden

#pragma once
// The drain's signals to the runner: graceful, then forceful at the deadline or on request,
// then SIGKILL after the kill timeout; and the start grace, which holds them for a runner
// that has not installed its signal handlers yet.

#include <string>

#include "src/drain/drain_step.hpp"

namespace runwarden {

// The signal each stage of the escalation sends; 0 for no stage.
int signal_of(const drain_config& config, escalation stage);

// The runner answered its metrics since it started, or has run for the start grace.
bool runner_ready(const drain_step& step);
// Signals the runner to finish its jobs; a force or deadline that already came follows.
void send_graceful_signal(drain_step& step);
// The same, unless the runner started moments ago and has not shown it is ready: then the
// signal waits for its readiness (on_runner_ready), which a runner that dies of a signal
// it has no handler for yet would never reach.
void send_graceful_signal_once_ready(drain_step& step);
void escalate_to_forceful(drain_step& step, const std::string& why);
void set_deadline(drain_step& step, instant deadline);
// The runner can take a signal now; a graceful signal held for it goes out.
void on_runner_ready(drain_step& step);

// Cells of the table.
void escalate_at_deadline(drain_step& step, const timer_fired& event);
void send_kill(drain_step& step, const timer_fired& event);
void end_start_grace(drain_step& step, const timer_fired& event);
void record_delivery(drain_step& step, const runner_signal_delivered& event);

}  // namespace runwarden

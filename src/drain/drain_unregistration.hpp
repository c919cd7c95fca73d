#pragma once
// The unregistration from the CI server: started after the runner stopped (GitLab), before
// the graceful signal (GitHub's runner, unregister_before_stop), or alongside it when the
// deadline is too close to do it after (a preemption); retried once more before the
// deadline, and an alert when it stays unconfirmed.

#include "src/drain/drain_step.hpp"

namespace runwarden {

void start_unregistration(drain_step& step);
// True when the graceful signal has to wait for unregistration, which this starts.
bool graceful_signal_waits_for_unregistration(drain_step& step);
// With a drain deadline and an unregistration under way, one more attempt is asked for a
// request's time before the deadline (a spot reclaim would take the runner's registration
// with the instance, whatever wait the unregistrar chose).
void arm_last_unregistration_attempt(drain_step& step);
// A deadline closer than config.unregister_alongside_below (a preemption's 30 s) leaves
// no time to unregister after the stop: the unregistration starts now, beside the drain.
void unregister_alongside_short_deadline(drain_step& step);

// Cells of the table.
void finish_unregistration(drain_step& step, const unregistration_finished& event);
void note_stray(drain_step& step, const unregistration_finished& event);
void attempt_unregistration_last(drain_step& step, const timer_fired& event);
// An unregistration unconfirmed for config.unregistration_alert_after calls for a person.
void alert_unconfirmed_unregistration(drain_step& step, const timer_fired& event);

}  // namespace runwarden

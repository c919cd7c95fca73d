#pragma once
// The retirement machine (src/retirement) beside the drain machine, as the warden runs it.
// The warden decides nothing here either: it hands the retirement machine what the drain
// machine saw (a runner up, its jobs, its end) and turns its decisions into drain events.
//
// A runner's end is classified before the drain machine takes it, since the drain machine
// would otherwise restart the runner: an end that retires the instance reaches it, and the
// journal, as one runner_exited carrying the decision (retire_by), so that a warden
// restarted from the journal finds the drain under way and never spawns again. A decision
// made while the runner runs (recycling, the idle bound) is a drain with the retirement
// trigger. Once that drain is gone, the instance end (actors/instance_end) ends the
// instance, and only then does the warden tell its exit listener.

#include <functional>
#include <optional>
#include <vector>

#include "actors/warden/warden_actor.hpp"

namespace runwarden {

using warden_pointer = warden_implementation::stateful_pointer<warden_state>;

// Before the drain machine takes `event`: sets runner_exited's retire_by when the end
// retires the instance.
void classify_runner_end(warden_pointer self, drain_event& event, instant now);

// After the drain machine took `event` (`reported_before`: its reported jobs before): what
// the retirement machine learns from it. A decision made now comes back as the drain to
// request; timers are armed and reports logged here. `replaying` (recovery) only rebuilds
// the counts: no timer, no report, no drain.
std::optional<shutdown_requested> observe_for_retirement(warden_pointer self,
                                                         const drain_event& event,
                                                         std::size_t reported_before, instant now,
                                                         bool replaying = false);

std::optional<shutdown_requested> on_retirement_timer(warden_pointer self,
                                                      const retirement_timer_fired& fired,
                                                      instant now);

// Reads the builds' disk through the port and hands its use to the retirement machine; the
// next reading is armed unless the machine decided.
std::optional<shutdown_requested> on_disk_check(warden_pointer self, instant now);

// At gone: true when the exit waits for the instance's end (a retirement's drain, or any
// drain whose instance the group retains), which is then asked for; `then_exit` runs once it
// answered.
bool end_instance_before_exit(warden_pointer self, std::function<void()> then_exit);

}  // namespace runwarden

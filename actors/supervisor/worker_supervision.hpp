#pragma once
// Each of runwarden's workers (the notifier, the metrics poller, the unregistration step,
// the cloud's watcher) runs under a supervisor of its own, so that a crash of one worker
// touches nothing else. A worker that keeps crashing is a bug, not bad luck: past the
// restart intensity its supervisor gives up, and the instance's escalation
// (give_up_escalation.hpp), which monitors every such supervisor, drains the runner the
// graceful way and ends the instance with exit_software, so that the service manager starts
// runwarden afresh (which then continues the drain from its journal).

#include <chrono>
#include <string>

#include "actors/supervisor/supervisor_actor.hpp"
#include "caf/all.hpp"

namespace runwarden {

inline constexpr supervisor_flags worker_supervision{.strategy = restart_strategy::one_for_one,
                                                     .restarts_max = 5,
                                                     .restart_window = std::chrono::minutes{1}};

// A supervisor (worker_supervision) of the one child given.
supervisor_actor spawn_worker_supervisor(caf::actor_system& system, supervised_child child);

// The incarnation of child `id` running now under `supervisor`; invalid when none runs or
// no answer came within wait_max. Blocks its caller: for the process's main thread only.
caf::actor current_child(caf::actor_system& system, const supervisor_actor& supervisor,
                         const std::string& id, std::chrono::milliseconds wait_max);

}  // namespace runwarden

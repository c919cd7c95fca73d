#pragma once
// The JSON a webhook or shutdown callback receives: what happened (event), why (reason,
// trigger), where the drain stands (state, phase), how the runner ended, and when, in
// RFC 3339 UTC. Field names are a public contract; add fields, never rename them. Fields
// without a value yet are null; the instance id and the Auto Scaling group are left out
// until a cloud provider knows them. "event" is one of notification_kind's words.
//
//   {"event": "gone", "state": "gone", "phase": "done", "reason": "...",
//    "trigger": "sigterm", "runner_exit": {"code": 0, "signal": null, "text": "..."},
//    "exit_code": 0, "exit_reason": "...", "runner_restarts": 0,
//    "time": "...Z", "status_since": "...Z", "drain_started_at": "...Z",
//    "drain_deadline": null, "runwarden_version": "0.1.0",
//    "instance_id": "i-0abc", "auto_scaling_group": "ci-runners"}

#include <chrono>
#include <string>
#include <string_view>

#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

// `wall_now` is the wall-clock time matching snapshot.now; the snapshot's steady instants
// are converted through it. Pure: the caller reads the clock.
std::string notification_body(notification_kind kind, const warden_snapshot& snapshot,
                              std::chrono::system_clock::time_point wall_now,
                              std::string_view version);

}  // namespace runwarden

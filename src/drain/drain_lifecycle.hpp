#pragma once
// The cloud's lifecycle action (an Auto Scaling terminate hook, an Azure scheduled event):
// looked for when the cloud calls for a drain, kept alive with heartbeats while the runner
// drains, completed in the wind-down, or let expire at the cloud's own timeout.

#include <optional>

#include "src/drain/drain_step.hpp"

namespace runwarden {

// A drain the cloud called for waits for the lifecycle client's look for the hook.
void expect_lifecycle_lookup(drain_step& step, const shutdown_requested& event);

// Cells of the table.
void begin_drain_for_hook(drain_step& step, const lifecycle_action_pending& event);
void join_drain_for_hook(drain_step& step, const lifecycle_action_pending& event);
void note_stray(drain_step& step, const lifecycle_action_pending& event);
void finish_lifecycle_completion(drain_step& step, const lifecycle_action_completed& event);
void note_stray(drain_step& step, const lifecycle_action_completed& event);
void end_lifecycle_lookup(drain_step& step, const lifecycle_lookup_ended& event);
void note_stray(drain_step& step, const lifecycle_lookup_ended& event);
void miss_lifecycle_client(drain_step& step, const lifecycle_client_unavailable& event);
void note_stray(drain_step& step, const lifecycle_client_unavailable& event);
void send_lifecycle_heartbeat(drain_step& step, const timer_fired& event);
void expire_lifecycle_action(drain_step& step, const timer_fired& event);

}  // namespace runwarden

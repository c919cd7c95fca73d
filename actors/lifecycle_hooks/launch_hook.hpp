#pragma once
// The launch side of the lifecycle hooks actor. At start it reads this instance: in
// Pending:Wait, it finds the group's launch hook, records a heartbeat at once and then every
// half heartbeat timeout, and answers it from the warden's snapshots: CONTINUE once the
// runner is ready (status running with a runner process, the runner's metrics answering
// when they are read, and the runner itself saying "running" when it says a state), ABANDON when a
// drain begins first or the ready timeout passes. A fixed wait would either waste minutes of every
// launch or let a broken runner in.

#include "actors/lifecycle_hooks/hook_calls.hpp"

namespace runwarden {

void watch_launch(hooks_pointer self);
void launch_snapshot(hooks_pointer self, const warden_snapshot& snapshot);

// Ready to take jobs, as far as runwarden can tell.
bool runner_ready(const warden_snapshot& snapshot, bool needs_metrics);

}  // namespace runwarden

#pragma once
// The runner's own life as the drain machine sees it: spawned, failed to spawn, exited,
// restarted after a backoff within its budget, or let go; and a reload passed on to it.

#include "src/drain/drain_step.hpp"

namespace runwarden {

// Cells of the table.
void request_spawn(drain_step& step, const warden_started& event);
void adopt_runner(drain_step& step, const runner_spawned& event);
void note_stray(drain_step& step, const runner_spawned& event);
void fail_spawn(drain_step& step, const runner_spawn_failed& event);
void restart_or_end(drain_step& step, const runner_exited& event);
void end_drained_runner(drain_step& step, const runner_exited& event);
void note_stray(drain_step& step, const runner_exited& event);
void forward_reload(drain_step& step, const reload_requested& event);
void note_stray(drain_step& step, const reload_requested& event);
void respawn_after_backoff(drain_step& step, const timer_fired& event);

}  // namespace runwarden

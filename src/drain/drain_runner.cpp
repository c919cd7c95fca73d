// See drain_runner.hpp.
#include "src/drain/drain_runner.hpp"

#include <cerrno>
#include <csignal>

#include "src/drain/drain_signals.hpp"
#include "src/drain/drain_triggers.hpp"
#include "src/drain/drain_unregistration.hpp"
#include "src/drain/drain_wind_down.hpp"
#include "src/supervision/restart_decision.hpp"
#include "src/util/assert.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

// The exit of the runner this machine knows (its pid): recorded, and true; another pid's
// (a child reaped as PID 1) is only said, and false.
bool record_exit(drain_step& step, const runner_exited& event) {
  auto& state = step.state;
  if (state.runner_pid != event.pid) {
    note_stray(step, event);
    return false;
  }
  state.runner = runner_state::exited;
  state.runner_pid.reset();
  state.last_exit = event.status;
  // Its reported jobs end with it: a missed `end` lasts no longer than the runner. The count
  // itself stays as last seen, which is what an end nobody could read is judged by.
  state.jobs_reported.clear_jobs();
  return true;
}

void consider_restart(drain_step& step, const exit_status& status) {
  auto& state = step.state;
  const auto& policy = step.config.restart;
  if (!exit_calls_for_restart(policy.type, status)) {
    finish(step, status.as_exit_code(),
           "runner ended (" + to_string(status) + "); restart policy " +
               std::string{to_string(policy.type)} + " keeps it down",
           status.unknown);
    return;
  }
  forget_restarts_outside_window(state.recent_restarts, policy.budget_window, step.now);
  if (!restart_budget_allows_one_more(policy, state.recent_restarts)) {
    const int code = status.normal() ? 1 : status.as_exit_code();
    // A runner that keeps dying needs a person, whatever the gone notification says.
    emit(step, send_notification{notification_kind::restart_budget_spent, {}});
    finish(step, code,
           "runner ended (" + to_string(status) + ") and the restart budget is spent: " +
               std::to_string(state.recent_restarts.size()) + " restarts within " +
               describe_duration(policy.budget_window),
           status.unknown);
    return;
  }
  const auto delay =
      backoff_delay(policy, state.recent_restarts.size(), next_unit_random(state.random_state));
  state.recent_restarts.push_back(step.now);
  ++state.restarts_total;
  state.runner = runner_state::backing_off;
  arm(step, state.timers.restart_backoff, timer_kind::restart_backoff, step.now + delay);
  say(step, report_level::warning,
      "runner ended (" + to_string(status) + "); restart " +
          std::to_string(state.recent_restarts.size()) + " of " +
          std::to_string(policy.budget_restarts_max) + " within " +
          describe_duration(policy.budget_window) + " in " + describe_duration(delay));
}

}  // namespace

void request_spawn(drain_step& step, const warden_started&) {
  RUNWARDEN_ASSERT(step.state.status == warden_status::starting && !step.state.runner_pid);
  emit(step, spawn_runner{});
}

void note_stray(drain_step& step, const runner_spawned&) {
  RUNWARDEN_ASSERT(step.state.runner != runner_state::spawning);
  say(step, report_level::warning, "ignored a spawn report while no spawn was pending");
}

void adopt_runner(drain_step& step, const runner_spawned& event) {
  auto& state = step.state;
  RUNWARDEN_ASSERT(state.runner == runner_state::spawning);
  state.runner = runner_state::alive;
  state.runner_pid = event.pid;
  state.runner_identity = event.identity;
  // Until it shows it is ready, a signal may find the runner without its handlers.
  state.runner_started_at = step.now;
  state.runner_answered = false;
  // The jobs reported for the runner before it ended with it (runner_exited); a runner
  // that reports them starts with none.
  if (state.jobs_reported.reporting())
    state.jobs_running = combined_jobs(state.jobs_scraped, state.jobs_reported);
  say(step, report_level::info, "runner started, pid " + std::to_string(event.pid));
  if (state.status == warden_status::starting) move_to(step, warden_status::running);
  // A drain requested while the runner was being spawned starts now that it can.
  if (state.status == warden_status::shutting_down &&
      !graceful_signal_waits_for_unregistration(step))
    send_graceful_signal_once_ready(step);
}

void fail_spawn(drain_step& step, const runner_spawn_failed& event) {
  RUNWARDEN_ASSERT(step.state.runner == runner_state::spawning);
  step.state.runner = runner_state::exited;
  step.state.spawn_failure = event.message;
  // The shell's convention: 127 when the command is not there, 126 when it cannot run.
  const int code = event.error_number == ENOENT ? 127 : 126;
  finish(step, code, "cannot start the runner: " + event.message);
}

void note_stray(drain_step& step, const runner_exited& event) {
  say(step, report_level::debug, "reaped pid " + std::to_string(event.pid));
}

void restart_or_end(drain_step& step, const runner_exited& event) {
  if (!record_exit(step, event)) return;
  if (event.retire_by) {
    // The machine's purpose ended with the runner: no restart, the wind-down at once.
    begin_drain(step, shutdown_requested{*event.retire_by, std::nullopt, event.retire_reason,
                                         std::nullopt});
    return;
  }
  consider_restart(step, event.status);
}

void end_drained_runner(drain_step& step, const runner_exited& event) {
  if (record_exit(step, event)) runner_stopped(step, event.status);
}

void note_stray(drain_step& step, const reload_requested&) {
  say(step, report_level::info, "reload requested while no runner is alive: nothing to forward");
}

void forward_reload(drain_step& step, const reload_requested&) {
  RUNWARDEN_ASSERT(step.state.runner == runner_state::alive);
  emit(step, signal_runner{*step.state.runner_pid, SIGHUP, signal_purpose::reload});
}

void respawn_after_backoff(drain_step& step, const timer_fired&) {
  RUNWARDEN_ASSERT(step.state.runner == runner_state::backing_off);
  step.state.runner = runner_state::spawning;
  emit(step, spawn_runner{});
}

}  // namespace runwarden

// See warden_snapshot.hpp.
#include "src/drain/warden_snapshot.hpp"

#include <tuple>

namespace runwarden {

namespace {

drain_phase phase_of(const drain_state& state) {
  if (state.status == warden_status::gone) return drain_phase::done;
  if (state.status != warden_status::shutting_down) return drain_phase::none;
  if (state.unregistration == step_progress::in_progress) return drain_phase::unregistering;
  if (state.lifecycle_completion == step_progress::in_progress ||
      (state.lifecycle_lookup == step_progress::in_progress && state.drained_exit))
    return drain_phase::completing;
  switch (state.stage) {
    case escalation::none:
      return drain_phase::waiting_for_runner;
    case escalation::graceful_sent:
      return drain_phase::draining;
    case escalation::forceful_sent:
      return drain_phase::forcing;
    case escalation::kill_sent:
      return drain_phase::killing;
  }
  return drain_phase::none;
}

auto comparable(const warden_snapshot& s) {
  return std::tie(s.status, s.status_since, s.phase, s.runner_pid, s.restarts_total, s.last_exit,
                  s.drain_started_at, s.drain_deadline, s.trigger, s.reason, s.jobs_running,
                  s.reported_jobs, s.lifecycle_hook, s.unregistration, s.exit_code, s.exit_unknown,
                  s.exit_reason, s.spawn_failure, s.runner_state, s.next_heartbeat_at,
                  s.lifecycle_expires_at, s.instance_id, s.auto_scaling_group,
                  s.auto_scaling_lifecycle_state, s.unregistration_attempts,
                  s.next_unregistration_at);
}

}  // namespace

std::string_view to_string(drain_phase phase) {
  switch (phase) {
    case drain_phase::none:
      return "none";
    case drain_phase::waiting_for_runner:
      return "waiting_for_runner";
    case drain_phase::draining:
      return "draining";
    case drain_phase::forcing:
      return "forcing";
    case drain_phase::killing:
      return "killing";
    case drain_phase::unregistering:
      return "unregistering";
    case drain_phase::completing:
      return "completing";
    case drain_phase::done:
      return "done";
  }
  return "unknown";
}

warden_snapshot snapshot_of(const drain_state& state, instant now, std::uint64_t version) {
  return warden_snapshot{
      .version = version,
      .now = now,
      .status = state.status,
      .status_since = state.status_since,
      .phase = phase_of(state),
      .runner_pid = state.runner_pid,
      .restarts_total = state.restarts_total,
      .last_exit = state.last_exit,
      .drain_started_at = state.drain_started_at,
      .drain_deadline = state.drain_deadline,
      .trigger = state.drain_trigger,
      .reason = state.drain_reason,
      // A count is the running runner's own; once it has ended, the last count is stale.
      .jobs_running = state.runner == runner_state::alive ? state.jobs_running : std::nullopt,
      .reported_jobs = state.jobs_reported.jobs(),
      .runner_state = state.runner_reported_state,
      .lifecycle_hook = state.lifecycle ? std::optional{state.lifecycle->hook_name} : std::nullopt,
      .next_heartbeat_at =
          state.timers.lifecycle_heartbeat ? state.next_heartbeat_at : std::nullopt,
      .lifecycle_expires_at = state.lifecycle && state.lifecycle_completion != step_progress::done
                                  ? std::optional{state.lifecycle->expires_at}
                                  : std::nullopt,
      .unregistration = state.unregistration_result,
      .exit_code = state.exit_code,
      .exit_unknown = state.exit_unknown,
      .exit_reason = state.exit_reason,
      .spawn_failure = state.spawn_failure,
  };
}

bool same_state(const warden_snapshot& left, const warden_snapshot& right) {
  return comparable(left) == comparable(right);
}

}  // namespace runwarden

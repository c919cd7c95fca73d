// See drain_wind_down.hpp.
#include "src/drain/drain_wind_down.hpp"

#include "src/drain/drain_unregistration.hpp"

namespace runwarden {

void runner_stopped(drain_step& step, const exit_status& status) {
  step.state.drained_exit = status;
  step.state.timers.drain_deadline.reset();
  step.state.timers.kill_timeout.reset();
  continue_wind_down(step);
}

void continue_wind_down(drain_step& step) {
  auto& state = step.state;
  const bool unregister = step.config.unregister || step.config.unregister_before_stop;
  if (unregister && state.unregistration == step_progress::not_started) start_unregistration(step);
  if (state.unregistration == step_progress::in_progress) return;
  if (state.lifecycle_lookup == step_progress::in_progress) return;  // the hook comes first
  if (state.lifecycle && state.lifecycle_completion == step_progress::not_started) {
    state.lifecycle_completion = step_progress::in_progress;
    state.timers.lifecycle_heartbeat.reset();
    emit(step, complete_lifecycle_action{state.lifecycle->hook_name, lifecycle_result::proceed});
  }
  if (state.lifecycle_completion == step_progress::in_progress) return;
  const auto status = state.drained_exit.value_or(exit_status{});
  const auto took = step.now - state.drain_started_at.value_or(step.now);
  std::string how = "runner stopped (" + to_string(status) + ") " + describe_duration(took) +
                    " after the drain began";
  // An end nobody could read stays unknown, unless the runner's own metrics last said it
  // ran no job: then no job can have been lost with it.
  if (status.unknown && state.jobs_running == 0u) {
    finish(step, 0, how + "; its metrics last showed no job running", true);
    return;
  }
  finish(step, status.as_exit_code(), how, status.unknown);
}

bool winding_down(const drain_step& step) {
  return step.state.status == warden_status::shutting_down && step.state.drained_exit.has_value();
}

// The operator's "now" once the runner is gone: what the wind-down still waits for (a CI
// server or an Auto Scaling endpoint that does not answer) is given up, said by name, and
// runwarden ends with the runner's exit code. Without it such a wait has no end of its own.
void stop_waiting(drain_step& step, const std::string& why) {
  auto& state = step.state;
  std::string given_up;
  const auto give_up = [&](step_progress& progress, const char* what) {
    if (progress != step_progress::in_progress) return;
    progress = step_progress::done;
    given_up += given_up.empty() ? what : std::string{", "} + what;
  };
  give_up(state.unregistration, "the unregistration");
  give_up(state.lifecycle_lookup, "the lifecycle hook's lookup");
  give_up(state.lifecycle_completion, "the lifecycle hook's completion");
  if (given_up.empty()) return;
  if (state.unregistration == step_progress::done && state.unregistration_result.empty())
    state.unregistration_result = "given up by the operator";
  state.timers.lifecycle_heartbeat.reset();
  state.timers.unregistration_last_attempt.reset();
  state.timers.unregistration_alert.reset();
  say(step, report_level::warning, why + ": no longer waiting for " + given_up);
  continue_wind_down(step);
}

}  // namespace runwarden

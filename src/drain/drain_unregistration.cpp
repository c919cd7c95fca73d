// See drain_unregistration.hpp.
#include "src/drain/drain_unregistration.hpp"

#include "src/drain/drain_signals.hpp"
#include "src/drain/drain_wind_down.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// The last unregistration attempt starts this long before the drain deadline: one request's
// time (the unregistrar's default request timeout).
constexpr duration last_unregistration_attempt_lead = std::chrono::seconds{30};

}  // namespace

void start_unregistration(drain_step& step) {
  auto& state = step.state;
  if (state.drained_exit)
    say(step, report_level::info,
        "runner stopped (" + to_string(*state.drained_exit) +
            "); unregistering it from the CI server");
  state.unregistration = step_progress::in_progress;
  state.unregistration_started_at = step.now;
  emit(step, unregister_runner{});
  arm_last_unregistration_attempt(step);
  if (step.config.unregistration_alert_after)
    arm(step, state.timers.unregistration_alert, timer_kind::unregistration_alert,
        step.now + *step.config.unregistration_alert_after);
}

bool graceful_signal_waits_for_unregistration(drain_step& step) {
  if (!step.config.unregister_before_stop || step.state.force_requested) return false;
  if (step.state.unregistration == step_progress::not_started) {
    say(step, report_level::info,
        "unregistering before the runner is stopped, so that the CI "
        "server hands it no new job and lets it go once idle");
    start_unregistration(step);
  }
  return step.state.unregistration == step_progress::in_progress;
}

void arm_last_unregistration_attempt(drain_step& step) {
  auto& state = step.state;
  if (state.unregistration != step_progress::in_progress || !state.drain_deadline) return;
  const auto at = *state.drain_deadline - last_unregistration_attempt_lead;
  if (at <= step.now) return;  // too close already: the unregistrar's own schedule goes on
  arm(step, state.timers.unregistration_last_attempt, timer_kind::unregistration_last_attempt, at);
}

void unregister_alongside_short_deadline(drain_step& step) {
  const auto& config = step.config;
  const auto& below = config.unregister_alongside_below;
  if (!below || !config.unregister || config.unregister_before_stop) return;
  if (step.state.unregistration != step_progress::not_started || !step.state.drain_deadline) return;
  const auto left = *step.state.drain_deadline - step.now;
  if (left >= *below) return;
  say(step, report_level::warning,
      "the drain deadline is " + describe_duration(left) +
          " away, too close to unregister after the runner stopped: "
          "unregistering alongside the drain");
  start_unregistration(step);
}

void note_stray(drain_step& step, const unregistration_finished&) {
  RUNWARDEN_ASSERT(step.state.unregistration != step_progress::in_progress);
  say(step, report_level::debug, "ignored an unregistration answer nobody waits for");
}

void finish_unregistration(drain_step& step, const unregistration_finished& event) {
  auto& state = step.state;
  if (state.unregistration != step_progress::in_progress) {
    note_stray(step, event);
    return;
  }
  state.unregistration = step_progress::done;
  state.unregistration_result = event.detail;
  say(step, event.confirmed ? report_level::info : report_level::error,
      (event.confirmed ? "unregistered from the CI server"
                       : "unregistration ran out of attempts; the runner may stay registered") +
          (event.detail.empty() ? "" : ": " + event.detail));
  if (state.status != warden_status::shutting_down) return;
  if (state.runner == runner_state::alive && state.stage == escalation::none) {
    send_graceful_signal_once_ready(step);  // unregistered first: idle, and gets no new job
  } else if (winding_down(step)) {
    continue_wind_down(step);
  }
}

void attempt_unregistration_last(drain_step& step, const timer_fired&) {
  if (step.state.unregistration != step_progress::in_progress) return;
  say(step, report_level::warning,
      "the drain deadline is " + describe_duration(last_unregistration_attempt_lead) +
          " away and the runner is still registered: one more "
          "unregistration attempt before it");
  emit(step, unregister_runner{});
}

void alert_unconfirmed_unregistration(drain_step& step, const timer_fired&) {
  if (step.state.unregistration != step_progress::in_progress) return;
  say(step, report_level::error,
      "the CI server has not confirmed the unregistration " +
          describe_duration(*step.config.unregistration_alert_after) +
          " after it began; still trying");
  emit(step, send_notification{notification_kind::unregistration_failing, {}});
}

}  // namespace runwarden

// See drain_triggers.hpp.
#include "src/drain/drain_triggers.hpp"

#include "src/drain/drain_lifecycle.hpp"
#include "src/drain/drain_signals.hpp"
#include "src/drain/drain_unregistration.hpp"
#include "src/drain/drain_wind_down.hpp"
#include "src/util/assert.hpp"
#include "src/util/url_userinfo.hpp"

namespace runwarden {

namespace {

// One callback, as gitlab-runner's wrapper keeps one (helpers/runner_wrapper/wrapper.go
// setShutdownCallback): a later call's replaces it.
void keep_callback(drain_step& step, const std::optional<shutdown_callback>& callback) {
  auto& callbacks = step.state.callbacks;
  if (!callback) return;
  if (!callbacks.empty() && callbacks.front() != *callback)
    say(step, report_level::info,
        "shutdown callback to " + redact_url_userinfo(callbacks.front().url) +
            " replaced by a later call's");
  callbacks.assign(1, *callback);
}

std::string forceful_why(const forceful_shutdown_requested& event) {
  return "forceful shutdown requested by " + std::string{to_string(event.source)};
}

}  // namespace

void begin_drain(drain_step& step, const shutdown_requested& event) {
  auto& state = step.state;
  move_to(step, warden_status::shutting_down);
  state.drain_started_at = step.now;
  state.drain_trigger = event.source;
  state.drain_reason = event.reason;
  if (is_operator_signal(event.source)) ++state.operator_signals_received;
  say(step, report_level::info,
      "drain requested by " + std::string{to_string(event.source)} +
          (event.reason.empty() ? "" : ": " + event.reason));
  emit(step, send_notification{notification_kind::drain_started, {}});
  if (state.runner == runner_state::backing_off || state.runner == runner_state::exited) {
    // Between restarts, or after an end that retires (runner_exited's retire_by), there is
    // nothing to drain: the last exit stands.
    state.timers.restart_backoff.reset();
    state.runner = runner_state::exited;
    runner_stopped(step, state.last_exit.value_or(exit_status{}));
    return;
  }
  // While spawning, the graceful signal goes out once the spawn is confirmed.
  if (state.runner == runner_state::alive && !graceful_signal_waits_for_unregistration(step))
    send_graceful_signal_once_ready(step);
  std::optional<instant> deadline = event.deadline;
  if (step.config.drain_timeout)
    deadline = earliest(deadline, step.now + *step.config.drain_timeout);
  if (deadline) set_deadline(step, *deadline);
  arm_last_unregistration_attempt(step);  // GitHub's runner: unregistering before the signal
  unregister_alongside_short_deadline(step);
}

void join_drain(drain_step& step, const shutdown_requested& event) {
  auto& state = step.state;
  const bool repeated_operator_signal = (event.source == trigger_source::signal_terminate ||
                                         event.source == trigger_source::signal_interrupt) &&
                                        state.operator_signals_received > 0;
  if (is_operator_signal(event.source)) ++state.operator_signals_received;
  if (event.deadline && (!state.drain_deadline || *event.deadline < *state.drain_deadline)) {
    set_deadline(step, *event.deadline);
    arm_last_unregistration_attempt(step);  // a tighter deadline while unregistering
    unregister_alongside_short_deadline(step);
  } else if (event.deadline) {
    // Said, so that a watcher's log of the deadline it asked for is never taken for the
    // one applied (after a recovery the journal's earlier deadline stands).
    say(step, report_level::info,
        "the deadline " + std::string{to_string(event.source)} +
            " asks for is not earlier than the drain's, which stands (" +
            (*state.drain_deadline > step.now
                 ? "in " + describe_duration(*state.drain_deadline - step.now)
                 : std::string{"passed"}) +
            ")");
  }
  const auto second = "a second " + std::string{to_string(event.source)} + " arrived";
  if (repeated_operator_signal && state.runner == runner_state::alive) {
    escalate_to_forceful(step, second);
  } else if (repeated_operator_signal && winding_down(step)) {
    stop_waiting(step, second);
  } else {
    say(step, report_level::info,
        "already draining; " + std::string{to_string(event.source)} +
            " does not restart the drain");
  }
}

void begin_requested_drain(drain_step& step, const shutdown_requested& event) {
  keep_callback(step, event.callback);
  begin_drain(step, event);
  expect_lifecycle_lookup(step, event);
}

void join_requested_drain(drain_step& step, const shutdown_requested& event) {
  keep_callback(step, event.callback);
  join_drain(step, event);
  expect_lifecycle_lookup(step, event);
}

// Forceful from the start: begin_drain sends both signals if the runner is up.
void begin_forceful_drain(drain_step& step, const forceful_shutdown_requested& event) {
  step.state.force_requested = true;
  begin_drain(step, shutdown_requested{event.source, std::nullopt, event.reason, std::nullopt});
}

// The runner is still spawning: its graceful signal, once it is up, is followed at once by
// the forceful one (send_graceful_signal).
void force_once_spawned(drain_step& step, const forceful_shutdown_requested&) {
  RUNWARDEN_ASSERT(step.state.runner == runner_state::spawning);
  step.state.force_requested = true;
}

void force_now(drain_step& step, const forceful_shutdown_requested& event) {
  step.state.force_requested = true;
  escalate_to_forceful(step, forceful_why(event));
}

void force_end_of_waits(drain_step& step, const forceful_shutdown_requested& event) {
  RUNWARDEN_ASSERT(winding_down(step));
  step.state.force_requested = true;
  stop_waiting(step, forceful_why(event));
}

}  // namespace runwarden

// See drain_step_context.hpp.
#include "src/drain/drain_step_context.hpp"

#include <csignal>

#include "src/runner/signal_names.hpp"
#include "src/util/assert.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

std::string describe_duration(duration value) {
  return format_duration(std::chrono::duration_cast<std::chrono::milliseconds>(value));
}

void drain_step_context::send_graceful_signal() {
  RUNWARDEN_ASSERT(state_.runner == runner_state::alive && state_.stage == escalation::none);
  state_.stage = escalation::graceful_sent;
  say(report_level::info,
      "asking the runner to finish its jobs (" + signal_name(config_.graceful_signal) + ")");
  emit(signal_runner{*state_.runner_pid, config_.graceful_signal, signal_purpose::graceful});
  // A deadline that passed, or a force requested, while the runner was spawning.
  if (state_.force_requested) {
    escalate_to_forceful("forceful shutdown requested");
  } else if (state_.drain_deadline && *state_.drain_deadline <= now_) {
    escalate_to_forceful("the drain deadline has already passed");
  }
}

bool drain_step_context::runner_ready() const {
  return state_.runner_answered || !state_.runner_started_at ||
         now_ >= *state_.runner_started_at + config_.runner_start_grace;
}

void drain_step_context::send_graceful_signal_once_ready() {
  RUNWARDEN_ASSERT(state_.runner == runner_state::alive && state_.stage == escalation::none);
  if (!runner_ready() && !state_.force_requested) {
    if (!state_.timers.runner_start_grace) {
      say(report_level::info,
          "the runner started moments ago: the graceful signal waits "
          "until its metrics answer or " +
              describe_duration(config_.runner_start_grace) + " after its start");
      arm(state_.timers.runner_start_grace, timer_kind::runner_start_grace,
          *state_.runner_started_at + config_.runner_start_grace);
    }
    return;
  }
  send_graceful_signal();
}

void drain_step_context::escalate_to_forceful(const std::string& why) {
  RUNWARDEN_ASSERT(state_.runner == runner_state::alive);
  if (state_.stage == escalation::forceful_sent || state_.stage == escalation::kill_sent) {
    say(report_level::info, why + "; the forceful signal was already sent");
    return;
  }
  // A deadline is no operator's "now": a runner that started moments ago and has not shown
  // it is ready would die of the signal before its handlers exist (exit 143), so it waits
  // for the start grace like the graceful one.
  if (!runner_ready() && !state_.force_requested) {
    if (!state_.forceful_held)
      say(report_level::warning, why +
                                     ": the runner started moments ago; the forceful signal "
                                     "waits until it is ready");
    state_.forceful_held = true;
    if (!state_.timers.runner_start_grace)
      arm(state_.timers.runner_start_grace, timer_kind::runner_start_grace,
          *state_.runner_started_at + config_.runner_start_grace);
    return;
  }
  state_.forceful_held = false;
  state_.stage = escalation::forceful_sent;
  say(report_level::warning,
      why + ": stopping the runner now (" + signal_name(config_.forceful_signal) + ")");
  emit(signal_runner{*state_.runner_pid, config_.forceful_signal, signal_purpose::forceful});
  arm(state_.timers.kill_timeout, timer_kind::kill_timeout, now_ + config_.kill_timeout);
}

void drain_step_context::set_deadline(instant deadline) {
  state_.drain_deadline = deadline;
  if (deadline <= now_) {
    // A runner still spawning hears both signals once it is up (send_graceful_signal).
    if (state_.runner == runner_state::alive)
      escalate_to_forceful("the drain deadline has already passed");
    return;
  }
  arm(state_.timers.drain_deadline, timer_kind::drain_deadline, deadline);
  say(report_level::info, "drain deadline in " + describe_duration(deadline - now_));
}

void drain_step_context::finish(int exit_code, std::string reason, bool end_unknown) {
  state_.timers = {};
  state_.runner = runner_state::exited;
  state_.exit_code = exit_code;
  state_.exit_unknown = end_unknown;
  state_.exit_reason = reason;
  say(exit_code == 0 ? report_level::info : report_level::warning, reason);
  move_to(warden_status::gone);
  emit(send_notification{notification_kind::gone, state_.callbacks});
  emit(exit_warden{exit_code, std::move(reason)});
}

void drain_step_context::move_to(warden_status next) {
  RUNWARDEN_ASSERT(next > state_.status);  // Status only moves forward.
  emit(change_status{state_.status, next});
  state_.status = next;
  state_.status_since = now_;
}

void drain_step_context::arm(std::optional<armed_timer>& slot, timer_kind kind, instant at) {
  slot = armed_timer{state_.next_timer_id++, at};
  emit(arm_timer{kind, slot->id, at});
}

bool drain_step_context::take_timer(std::optional<armed_timer>& slot, timer_id id) {
  if (!slot || slot->id != id) return false;
  slot.reset();
  return true;
}

}  // namespace runwarden

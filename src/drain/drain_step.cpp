// See drain_step.hpp.
#include "src/drain/drain_step.hpp"

#include "src/util/assert.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

std::string describe_duration(duration value) {
  return format_duration(std::chrono::duration_cast<std::chrono::milliseconds>(value));
}

void finish(drain_step& step, int exit_code, std::string reason, bool end_unknown) {
  auto& state = step.state;
  state.timers = {};
  state.runner = runner_state::exited;
  state.exit_code = exit_code;
  state.exit_unknown = end_unknown;
  state.exit_reason = reason;
  say(step, exit_code == 0 ? report_level::info : report_level::warning, reason);
  move_to(step, warden_status::gone);
  emit(step, send_notification{notification_kind::gone, state.callbacks});
  emit(step, exit_warden{exit_code, std::move(reason)});
}

void move_to(drain_step& step, warden_status next) {
  RUNWARDEN_ASSERT(next > step.state.status);  // Status only moves forward.
  emit(step, change_status{step.state.status, next});
  step.state.status = next;
  step.state.status_since = step.now;
}

void arm(drain_step& step, std::optional<armed_timer>& slot, timer_kind kind, instant at) {
  slot = armed_timer{step.state.next_timer_id++, at};
  emit(step, arm_timer{kind, slot->id, at});
}

bool take_timer(std::optional<armed_timer>& slot, timer_id id) {
  if (!slot || slot->id != id) return false;
  slot.reset();
  return true;
}

std::optional<armed_timer>& timer_slot(armed_timers& timers, timer_kind kind) {
  switch (kind) {
    case timer_kind::restart_backoff:
      return timers.restart_backoff;
    case timer_kind::drain_deadline:
      return timers.drain_deadline;
    case timer_kind::kill_timeout:
      return timers.kill_timeout;
    case timer_kind::lifecycle_heartbeat:
      return timers.lifecycle_heartbeat;
    case timer_kind::lifecycle_expiry:
      return timers.lifecycle_expiry;
    case timer_kind::runner_start_grace:
      return timers.runner_start_grace;
    case timer_kind::unregistration_last_attempt:
      return timers.unregistration_last_attempt;
    case timer_kind::unregistration_alert:
      return timers.unregistration_alert;
  }
  RUNWARDEN_ASSERT(false && "a timer kind without a slot");
  return timers.restart_backoff;
}

}  // namespace runwarden

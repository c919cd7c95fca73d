// The drain machine's step: the phase and the event kind pick one cell of the table
// (drain_table.cpp), whose handler does the work. Stale timers are recognised by their id
// and dropped here, before the table, which is why no effect ever cancels a timer.
#include "src/drain/drain_machine.hpp"

#include <utility>

#include "src/drain/drain_signals.hpp"
#include "src/drain/drain_step.hpp"
#include "src/drain/drain_table.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

drain_machine::drain_machine(drain_config config) : config_(std::move(config)) {
  RUNWARDEN_ASSERT(config_.kill_timeout > duration::zero());
  RUNWARDEN_ASSERT(!config_.drain_timeout || *config_.drain_timeout > duration::zero());
  state_.random_state = config_.random_seed;
}

std::optional<int> drain_machine::undelivered_signal() const {
  if (state_.runner != runner_state::alive || state_.delivered >= state_.stage) return std::nullopt;
  return signal_of(config_, state_.stage);
}

std::vector<arm_timer> drain_machine::timer_rearms() const {
  const auto& timers = state_.timers;
  const std::pair<const std::optional<armed_timer>*, timer_kind> slots[] = {
      {&timers.restart_backoff, timer_kind::restart_backoff},
      {&timers.drain_deadline, timer_kind::drain_deadline},
      {&timers.kill_timeout, timer_kind::kill_timeout},
      {&timers.lifecycle_heartbeat, timer_kind::lifecycle_heartbeat},
      {&timers.lifecycle_expiry, timer_kind::lifecycle_expiry},
      {&timers.runner_start_grace, timer_kind::runner_start_grace},
      {&timers.unregistration_last_attempt, timer_kind::unregistration_last_attempt},
      {&timers.unregistration_alert, timer_kind::unregistration_alert}};
  std::vector<arm_timer> rearms;
  for (const auto& [slot, kind] : slots)
    if (*slot) rearms.push_back(arm_timer{kind, (*slot)->id, (*slot)->at});
  return rearms;
}

std::vector<drain_effect> drain_machine::step(const drain_event& event, instant now) {
  const auto& cell = drain_table_cell(machine_phase_of(state_), event_kind_of(event));
  // A timer fires once, and only the one armed: one re-armed or disarmed since is stale.
  if (const auto* fired = std::get_if<timer_fired>(&event))
    if (!take_timer(timer_slot(state_.timers, fired->kind), fired->id)) return {};
  drain_step step{config_, state_, now};
  cell.run(step, event);
  return std::move(step.effects);
}

}  // namespace runwarden

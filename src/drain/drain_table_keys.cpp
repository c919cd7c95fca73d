// The table's keys (drain_table.hpp): the phase read from a state, the kind read from an
// event, and their printed names. machine_phase_of also checks that status and runner agree: a
// combination outside the eight phases is a bug of the handlers.
#include <variant>

#include "src/drain/drain_table.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

constexpr std::size_t timer_kind_count =
    static_cast<std::size_t>(timer_kind::unregistration_alert) + 1;
static_assert(drain_event_kind_count == std::variant_size_v<drain_event> - 1 + timer_kind_count,
              "each event alternative is a row, and timer_fired one row per timer kind");
static_assert(static_cast<std::size_t>(drain_event_kind::unregistration_alert_fired) + 1 ==
              drain_event_kind_count);
static_assert(static_cast<std::size_t>(machine_phase::gone) + 1 == machine_phase_count);

struct kind_of_event {
  using k = drain_event_kind;
  k operator()(const warden_started&) const { return k::warden_started; }
  k operator()(const runner_spawned&) const { return k::runner_spawned; }
  k operator()(const runner_spawn_failed&) const { return k::runner_spawn_failed; }
  k operator()(const runner_exited&) const { return k::runner_exited; }
  k operator()(const shutdown_requested&) const { return k::shutdown_requested; }
  k operator()(const forceful_shutdown_requested&) const { return k::forceful_shutdown_requested; }
  k operator()(const reload_requested&) const { return k::reload_requested; }
  k operator()(const runner_load_observed&) const { return k::runner_load_observed; }
  k operator()(const unregistration_finished&) const { return k::unregistration_finished; }
  k operator()(const lifecycle_action_pending&) const { return k::lifecycle_action_pending; }
  k operator()(const lifecycle_action_completed&) const { return k::lifecycle_action_completed; }
  k operator()(const lifecycle_lookup_ended&) const { return k::lifecycle_lookup_ended; }
  k operator()(const runner_signal_delivered&) const { return k::runner_signal_delivered; }
  k operator()(const lifecycle_client_unavailable&) const {
    return k::lifecycle_client_unavailable;
  }
  k operator()(const job_reported&) const { return k::job_reported; }
  k operator()(const timer_fired& event) const {
    return static_cast<k>(static_cast<std::size_t>(k::restart_backoff_fired) +
                          static_cast<std::size_t>(event.kind));
  }
};

}  // namespace

drain_event_kind event_kind_of(const drain_event& event) {
  return std::visit(kind_of_event{}, event);
}

machine_phase machine_phase_of(const drain_state& state) {
  const auto runner = state.runner;
  switch (state.status) {
    case warden_status::starting:
      RUNWARDEN_ASSERT(runner == runner_state::spawning);
      return machine_phase::starting;
    case warden_status::running:
      RUNWARDEN_ASSERT(runner != runner_state::exited);
      if (runner == runner_state::spawning) return machine_phase::respawning;
      return runner == runner_state::alive ? machine_phase::running : machine_phase::backing_off;
    case warden_status::shutting_down:
      RUNWARDEN_ASSERT(runner != runner_state::backing_off);
      if (runner == runner_state::spawning) return machine_phase::drain_spawning;
      if (runner == runner_state::alive) return machine_phase::draining;
      RUNWARDEN_ASSERT(state.drained_exit.has_value());
      return machine_phase::winding_down;
    case warden_status::gone:
      RUNWARDEN_ASSERT(runner == runner_state::exited);
      return machine_phase::gone;
  }
  RUNWARDEN_ASSERT(false && "a status outside warden_status");
  return machine_phase::gone;
}

std::string_view to_string(machine_phase phase) {
  constexpr std::string_view names[] = {
      "starting",       "respawning", "running",      "backing_off",
      "drain_spawning", "draining",   "winding_down", "gone"};
  static_assert(std::size(names) == machine_phase_count);
  return names[static_cast<std::size_t>(phase)];
}

std::string_view to_string(drain_event_kind kind) {
  constexpr std::string_view names[] = {"warden_started",
                                        "runner_spawned",
                                        "runner_spawn_failed",
                                        "runner_exited",
                                        "shutdown_requested",
                                        "forceful_shutdown_requested",
                                        "reload_requested",
                                        "runner_load_observed",
                                        "unregistration_finished",
                                        "lifecycle_action_pending",
                                        "lifecycle_action_completed",
                                        "lifecycle_lookup_ended",
                                        "runner_signal_delivered",
                                        "lifecycle_client_unavailable",
                                        "job_reported",
                                        "restart_backoff_fired",
                                        "drain_deadline_fired",
                                        "kill_timeout_fired",
                                        "lifecycle_heartbeat_fired",
                                        "lifecycle_expiry_fired",
                                        "runner_start_grace_fired",
                                        "unregistration_last_attempt_fired",
                                        "unregistration_alert_fired"};
  static_assert(std::size(names) == drain_event_kind_count);
  return names[static_cast<std::size_t>(kind)];
}

}  // namespace runwarden

#pragma once
// The drain machine's whole behaviour as one table, phase × event → cell, as s6-supervise
// keeps its actions[][]: drain_table.cpp holds it on one screen, the no-op cells written
// out. The phase is read from the state (status and runner), the event kind from the event
// (a timer's kind counts as an event of its own), and the cell names the handler.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

struct drain_step;

// Where the machine is, as status × runner; every state is in exactly one phase.
enum class machine_phase : std::uint8_t {
  starting,        // status starting, the first runner spawning
  respawning,      // running, a runner spawning again after its backoff
  running,         // running, the runner alive
  backing_off,     // running, the runner ended and waits for its restart
  drain_spawning,  // shutting down, the runner still spawning: its signal waits for it
  draining,        // shutting down, the runner alive and signalled (or about to be)
  winding_down,    // shutting down, the runner gone: unregistering, completing the hook
  gone,            // the end: only the runner's metrics are still kept
};
inline constexpr std::size_t machine_phase_count = 8;

// What happened: each alternative of drain_event, with timer_fired split by timer_kind.
enum class drain_event_kind : std::uint8_t {
  warden_started,
  runner_spawned,
  runner_spawn_failed,
  runner_exited,
  shutdown_requested,
  forceful_shutdown_requested,
  reload_requested,
  runner_load_observed,
  unregistration_finished,
  lifecycle_action_pending,
  lifecycle_action_completed,
  lifecycle_lookup_ended,
  runner_signal_delivered,
  lifecycle_client_unavailable,
  job_reported,
  restart_backoff_fired,  // from here on, timer_fired in timer_kind's order
  drain_deadline_fired,
  kill_timeout_fired,
  lifecycle_heartbeat_fired,
  lifecycle_expiry_fired,
  runner_start_grace_fired,
  unregistration_last_attempt_fired,
  unregistration_alert_fired,
};
inline constexpr std::size_t drain_event_kind_count = 23;

// What a cell promises, which drain_table_test.cpp holds it to.
enum class drain_outcome : std::uint8_t {
  unchanged,  // nothing at all: no state change, no effect
  noted,      // a report that the event came to nothing; no state change
  handled,    // the handler decides, from the finer state (timers, wind-down steps)
  misuse,     // a caller's bug: asserted (a second warden_started)
};

struct drain_cell {
  std::string_view name;
  drain_outcome outcome;
  void (*run)(drain_step& step, const drain_event& event);
};

machine_phase machine_phase_of(const drain_state& state);
drain_event_kind event_kind_of(const drain_event& event);
const drain_cell& drain_table_cell(machine_phase phase, drain_event_kind kind);

std::string_view to_string(machine_phase phase);
std::string_view to_string(drain_event_kind kind);

}  // namespace runwarden

// The drain table. Rows are events, columns are phases (drain_table.hpp); each cell is one
// named handler, the no-ops spelled out: `ignore` does nothing, `stray` only says the event
// came to nothing (drain_outcome::noted), `refuse` is a caller's bug. The handlers live
// with their concept (drain_runner, drain_triggers, drain_signals, drain_jobs,
// drain_unregistration, drain_lifecycle). A timer fires only if it is the one armed, and
// its firing disarms it, before the table (drain_machine.cpp): so a timer's cell is
// `ignore` wherever that timer cannot be armed, and a handler never checks timer ids.
#include "src/drain/drain_table.hpp"

#include <array>
#include <type_traits>

#include "src/drain/drain_jobs.hpp"
#include "src/drain/drain_lifecycle.hpp"
#include "src/drain/drain_runner.hpp"
#include "src/drain/drain_signals.hpp"
#include "src/drain/drain_triggers.hpp"
#include "src/drain/drain_unregistration.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

template <class>
struct event_of;
template <class Event>
struct event_of<void (*)(drain_step&, const Event&)> {
  using type = Event;
};

// A handler of one event type, run from the table's uniform signature.
template <auto handler>
void run_handler(drain_step& step, const drain_event& event) {
  handler(step, std::get<typename event_of<decltype(handler)>::type>(event));
}

template <auto handler>
constexpr drain_cell handled(std::string_view name) {
  return {name, drain_outcome::handled, &run_handler<handler>};
}

void do_nothing(drain_step&, const drain_event&) {}

void note_stray_event(drain_step& step, const drain_event& event) {
  std::visit(
      [&step](const auto& typed) {
        using event_type = std::decay_t<decltype(typed)>;
        if constexpr (requires(drain_step & s, const event_type& e) { note_stray(s, e); })
          note_stray(step, typed);
        else
          RUNWARDEN_ASSERT(false && "a stray cell for an event with no stray note");
      },
      event);
}

void refuse_event(drain_step&, const drain_event&) {
  RUNWARDEN_ASSERT(false && "an event the machine's caller must never send in this phase");
}

constexpr drain_cell ignore{"ignore", drain_outcome::unchanged, &do_nothing};
constexpr drain_cell stray{"stray", drain_outcome::noted, &note_stray_event};
constexpr drain_cell refuse{"refuse", drain_outcome::misuse, &refuse_event};
// The runner.
constexpr auto spawn = handled<&request_spawn>("spawn");
constexpr auto adopt = handled<&adopt_runner>("adopt");
constexpr auto failed = handled<&fail_spawn>("failed");
constexpr auto restart = handled<&restart_or_end>("restart");
constexpr auto stopped = handled<&end_drained_runner>("stopped");
constexpr auto reload = handled<&forward_reload>("reload");
constexpr auto respawn = handled<&respawn_after_backoff>("respawn");
// The triggers.
constexpr auto begin = handled<&begin_requested_drain>("begin");
constexpr auto join = handled<&join_requested_drain>("join");
constexpr auto force = handled<&begin_forceful_drain>("force");
constexpr auto insist = handled<&force_once_spawned>("insist");
constexpr auto escalate = handled<&force_now>("escalate");
constexpr auto give_up = handled<&force_end_of_waits>("give_up");
// The signals.
constexpr auto overdue = handled<&escalate_at_deadline>("overdue");
constexpr auto sigkill = handled<&send_kill>("sigkill");
constexpr auto ready = handled<&end_start_grace>("ready");
constexpr auto record = handled<&record_delivery>("record");
// The jobs, the unregistration, the lifecycle action.
constexpr auto load = handled<&observe_load>("load");
constexpr auto job = handled<&count_reported_job>("job");
constexpr auto unlisted = handled<&finish_unregistration>("unlisted");
constexpr auto retry = handled<&attempt_unregistration_last>("retry");
constexpr auto alert = handled<&alert_unconfirmed_unregistration>("alert");
constexpr auto hook = handled<&begin_drain_for_hook>("hook");
constexpr auto add_hook = handled<&join_drain_for_hook>("add_hook");
constexpr auto answered = handled<&finish_lifecycle_completion>("answered");
constexpr auto no_hook = handled<&end_lifecycle_lookup>("no_hook");
constexpr auto absent = handled<&miss_lifecycle_client>("absent");
constexpr auto beat = handled<&send_lifecycle_heartbeat>("beat");
constexpr auto expire = handled<&expire_lifecycle_action>("expire");

using drain_row = std::array<drain_cell, machine_phase_count>;

// clang-format off
constexpr std::array<drain_row, drain_event_kind_count> drain_table{{
// The columns, in machine_phase's order (drain_table.hpp; respawning, backing_off,
// drain_spawning and winding_down shortened):
// starting  respawn   running   backoff   dr_spawn  draining  winding   gone
  {spawn,    refuse,   refuse,   refuse,   refuse,   refuse,   refuse,   refuse},   // started
  {adopt,    adopt,    stray,    stray,    adopt,    stray,    stray,    stray},    // spawned
  {failed,   failed,   ignore,   ignore,   failed,   ignore,   ignore,   ignore},   // spawn_failed
  {stray,    stray,    restart,  stray,    stray,    stopped,  stray,    stray},    // exited
  {begin,    begin,    begin,    begin,    join,     join,     join,     ignore},   // shutdown
  {force,    force,    force,    force,    insist,   escalate, give_up,  ignore},   // forceful
  {stray,    stray,    reload,   stray,    stray,    reload,   stray,    stray},    // reload
  {load,     load,     load,     load,     load,     load,     load,     load},     // load
  {stray,    stray,    stray,    stray,    unlisted, unlisted, unlisted, unlisted}, // unregistered
  {hook,     hook,     hook,     hook,     add_hook, add_hook, add_hook, stray},    // hook_pending
  {stray,    stray,    stray,    stray,    stray,    stray,    answered, stray},    // completed
  {stray,    stray,    stray,    stray,    no_hook,  no_hook,  no_hook,  no_hook},  // lookup_ended
  {ignore,   ignore,   ignore,   ignore,   ignore,   record,   ignore,   ignore},   // delivered
  {stray,    stray,    stray,    stray,    stray,    stray,    absent,   stray},    // no_client
  {stray,    stray,    job,      stray,    stray,    job,      stray,    stray},    // job_reported
  // The timers, in timer_kind's order:
  {ignore,   ignore,   ignore,   respawn,  ignore,   ignore,   ignore,   ignore},   // backoff
  {ignore,   ignore,   ignore,   ignore,   ignore,   overdue,  ignore,   ignore},   // deadline
  {ignore,   ignore,   ignore,   ignore,   ignore,   sigkill,  ignore,   ignore},   // kill_timeout
  {ignore,   ignore,   ignore,   ignore,   beat,     beat,     beat,     ignore},   // heartbeat
  {ignore,   ignore,   ignore,   ignore,   expire,   expire,   expire,   ignore},   // hook_expiry
  {ignore,   ignore,   ignore,   ignore,   ignore,   ready,    ignore,   ignore},   // start_grace
  {ignore,   ignore,   ignore,   ignore,   retry,    retry,    retry,    ignore},   // last_attempt
  {ignore,   ignore,   ignore,   ignore,   alert,    alert,    alert,    ignore},   // unreg_alert
}};
// clang-format on

// Every cell written: a row left short would hold an empty cell, caught here. A cell is
// written with its handler and name together; the name is what is checked, since GCC's
// UBSan makes a function pointer's comparison with nullptr not a constant expression.
constexpr bool every_cell_written() {
  for (const auto& row : drain_table)
    for (const auto& cell : row)
      if (cell.name.empty()) return false;
  return true;
}
static_assert(every_cell_written(), "a cell of the drain table is missing");

}  // namespace

const drain_cell& drain_table_cell(machine_phase phase, drain_event_kind kind) {
  const auto row = static_cast<std::size_t>(kind);
  const auto column = static_cast<std::size_t>(phase);
  RUNWARDEN_ASSERT(row < drain_event_kind_count && column < machine_phase_count);
  return drain_table[row][column];
}

}  // namespace runwarden

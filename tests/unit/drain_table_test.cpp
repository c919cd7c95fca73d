// Every cell of the drain table (src/drain/drain_table.cpp), visited. For each phase, a few
// machines are brought into it by real event sequences (never by setting fields); each gets
// one probe event of every kind, on a copy, and the cell's declared outcome is checked:
// `unchanged` leaves the state and the effects as they were, `noted` only reports, and a
// `handled` cell must change something in at least one of its phase's machines. A timer
// probe carries the id armed for its kind, so it really fires; its firing disarms it before
// the table, which is the one change a no-op cell of a timer makes. The counts are pinned:
// a new phase or event kind fails to compile here until it has machines and a probe.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "src/drain/drain_step.hpp"
#include "src/drain/drain_table.hpp"
#include "tests/unit/gitlab_drain_config.hpp"

using namespace runwarden;
using namespace runwarden::testing;
using namespace std::chrono_literals;

static_assert(machine_phase_count == 8 && drain_event_kind_count == 23,
              "a new phase needs machines in phase_setups, a new event a probe in probe_for");

namespace {

using event_at = std::function<drain_event(const drain_state&)>;

struct phase_setup {
  std::string name;
  machine_phase phase;
  drain_config config;
  std::vector<std::pair<duration, event_at>> events;
};

event_at plain(drain_event event) {
  return [event](const drain_state&) { return event; };
}
event_at fire(timer_kind kind) {
  return [kind](const drain_state& state) -> drain_event {
    auto timers = state.timers;
    const auto& slot = timer_slot(timers, kind);
    return timer_fired{kind, slot ? slot->id : timer_id{999999}};
  };
}

drain_config rich_config(bool await_lookup = true) {
  auto config = gitlab_config();
  config.unregister = true;
  config.unregister_alongside_below = 1h;
  config.unregistration_alert_after = 60s;
  config.drain_timeout = 5min;
  config.await_lifecycle_lookup = await_lookup;
  return config;
}

drain_config grace_config() {
  auto config = gitlab_config();
  config.runner_start_grace = 1s;
  config.drain_timeout = 5min;
  return config;
}

lifecycle_action_pending hook(std::string name, instant now) {
  return {lifecycle_action{
      .hook_name = std::move(name), .heartbeat_timeout = 60s, .expires_at = now + 10min}};
}

const auto started = plain(warden_started{});
const auto spawned = plain(runner_spawned{100});
const auto sigterm = plain(shutdown_requested{.source = trigger_source::signal_terminate});
const auto failed_exit = plain(runner_exited{100, exit_status{false, 1}});
const auto clean_exit = plain(runner_exited{100, exit_status{false, 0}});
// A cloud's terminate transition with a 20 s notice: the lookup and the unregistration
// (alongside, as the deadline is short) both run.
const auto cloud_notice =
    plain(shutdown_requested{.source = trigger_source::cloud_lifecycle, .deadline = instant{20s}});
const auto cloud_drain = plain(shutdown_requested{.source = trigger_source::cloud_lifecycle});

std::vector<phase_setup> phase_setups() {
  using p = machine_phase;
  const auto base = gitlab_config();
  const auto hook_a = plain(hook("hook-a", instant{1s}));
  return {
      {"fresh", p::starting, base, {{0s, started}}},
      {"respawning",
       p::respawning,
       base,
       {{0s, started}, {0s, spawned}, {1s, failed_exit}, {2s, fire(timer_kind::restart_backoff)}}},
      {"running", p::running, base, {{0s, started}, {0s, spawned}}},
      {"backing off", p::backing_off, base, {{0s, started}, {0s, spawned}, {1s, failed_exit}}},
      {"drain while spawning", p::drain_spawning, base, {{0s, started}, {0s, sigterm}}},
      {"hook while spawning", p::drain_spawning, rich_config(), {{0s, started}, {1s, hook_a}}},
      {"cloud notice while spawning",
       p::drain_spawning,
       rich_config(),
       {{0s, started}, {0s, cloud_notice}}},
      {"draining", p::draining, base, {{0s, started}, {0s, spawned}, {1s, sigterm}}},
      {"forced", p::draining, base, {{0s, started}, {0s, spawned}, {1s, sigterm}, {2s, sigterm}}},
      {"held for the start grace",
       p::draining,
       grace_config(),
       {{0s, started}, {0s, spawned}, {500ms, sigterm}}},
      {"draining for a hook",
       p::draining,
       rich_config(),
       {{0s, started}, {0s, spawned}, {1s, hook_a}}},
      {"draining for the cloud",
       p::draining,
       rich_config(),
       {{0s, started}, {0s, spawned}, {1s, cloud_drain}}},
      {"unregistering",
       p::winding_down,
       rich_config(),
       {{0s, started}, {0s, spawned}, {1s, hook_a}, {2s, clean_exit}}},
      {"completing the hook",
       p::winding_down,
       rich_config(),
       {{0s, started},
        {0s, spawned},
        {1s, hook_a},
        {2s, clean_exit},
        {3s, plain(unregistration_finished{})}}},
      {"completing, no client configured",
       p::winding_down,
       rich_config(false),
       {{0s, started},
        {0s, spawned},
        {1s, hook_a},
        {2s, clean_exit},
        {3s, plain(unregistration_finished{})}}},
      {"looking for the hook",
       p::winding_down,
       rich_config(),
       {{0s, started}, {0s, spawned}, {1s, cloud_drain}, {2s, clean_exit}}},
      {"drained", p::gone, base, {{0s, started}, {0s, spawned}, {1s, sigterm}, {2s, clean_exit}}},
      {"spawn failed mid-wind-down",
       p::gone,
       rich_config(),
       {{0s, started},
        {0s, cloud_notice},
        {1s, plain(runner_spawn_failed{ENOENT, "no such file"})}}},
  };
}

drain_event probe_for(drain_event_kind kind, const drain_state& state, instant now) {
  using k = drain_event_kind;
  const auto pid = state.runner_pid.value_or(100);
  const auto timer = [&](timer_kind timer_kind) { return fire(timer_kind)(state); };
  switch (kind) {
    case k::warden_started:
      return warden_started{};
    case k::runner_spawned:
      return runner_spawned{200};
    case k::runner_spawn_failed:
      return runner_spawn_failed{ENOENT, "no such file"};
    case k::runner_exited:
      return runner_exited{pid, exit_status{false, 0}};
    case k::shutdown_requested:
      return shutdown_requested{.source = trigger_source::signal_terminate};
    case k::forceful_shutdown_requested:
      return forceful_shutdown_requested{};
    case k::reload_requested:
      return reload_requested{};
    case k::runner_load_observed:
      return runner_load_observed{3u, "running"};
    case k::unregistration_finished:
      return unregistration_finished{true, "deleted"};
    case k::lifecycle_action_pending:
      return hook("hook-b", now);
    case k::lifecycle_action_completed:
      return lifecycle_action_completed{};
    case k::lifecycle_lookup_ended:
      return lifecycle_lookup_ended{"none found"};
    case k::runner_signal_delivered:
      return runner_signal_delivered{pid, SIGQUIT};
    case k::lifecycle_client_unavailable:
      return lifecycle_client_unavailable{};
    case k::job_reported:
      return job_reported{job_report_kind::started, "job-1"};
    case k::restart_backoff_fired:
      return timer(timer_kind::restart_backoff);
    case k::drain_deadline_fired:
      return timer(timer_kind::drain_deadline);
    case k::kill_timeout_fired:
      return timer(timer_kind::kill_timeout);
    case k::lifecycle_heartbeat_fired:
      return timer(timer_kind::lifecycle_heartbeat);
    case k::lifecycle_expiry_fired:
      return timer(timer_kind::lifecycle_expiry);
    case k::runner_start_grace_fired:
      return timer(timer_kind::runner_start_grace);
    case k::unregistration_last_attempt_fired:
      return timer(timer_kind::unregistration_last_attempt);
    case k::unregistration_alert_fired:
      return timer(timer_kind::unregistration_alert);
  }
  FAIL("an event kind without a probe");
  return warden_started{};
}

// The whole state compared, field by field (drain_state has no operator==, to leave the
// header every actor includes as it is). Its size is pinned on x86-64 so that a new field
// fails here until it is compared too.
static_assert(sizeof(drain_state) == 792 && sizeof(armed_timers) == 192,
              "drain_state changed: compare the new field in same_state");
auto fields_of(const drain_state& s) {
  return std::tie(
      s.status, s.runner, s.runner_pid, s.runner_identity, s.runner_started_at, s.runner_answered,
      s.last_exit, s.spawn_failure, s.drain_started_at, s.drain_deadline, s.drain_trigger,
      s.drain_reason, s.callbacks, s.force_requested, s.forceful_held, s.stage, s.delivered,
      s.operator_signals_received, s.recent_restarts, s.restarts_total, s.jobs_scraped,
      s.jobs_reported, s.jobs_running, s.runner_reported_state, s.unregistration, s.lifecycle,
      s.lifecycle_lookup, s.lifecycle_completion, s.drained_exit, s.unregistration_result,
      s.next_heartbeat_at, s.unregistration_started_at, s.status_since, s.exit_code, s.exit_unknown,
      s.exit_reason, s.next_timer_id, s.random_state, s.timers.restart_backoff,
      s.timers.drain_deadline, s.timers.kill_timeout, s.timers.lifecycle_heartbeat,
      s.timers.lifecycle_expiry, s.timers.runner_start_grace, s.timers.unregistration_last_attempt,
      s.timers.unregistration_alert);
}
bool same_state(const drain_state& a, const drain_state& b) { return fields_of(a) == fields_of(b); }

// The state a no-op leaves: the same, but for the timer the probe fired, if it was armed.
drain_state unchanged_by(const drain_state& before, const drain_event& probe) {
  auto expected = before;
  if (const auto* fired = std::get_if<timer_fired>(&probe))
    take_timer(timer_slot(expected.timers, fired->kind), fired->id);
  return expected;
}

bool only_reports(const std::vector<drain_effect>& effects) {
  return std::all_of(effects.begin(), effects.end(), [](const drain_effect& effect) {
    return std::holds_alternative<report>(effect);
  });
}

}  // namespace

TEST_CASE("every cell of the drain table does what it declares") {
  std::set<std::pair<machine_phase, drain_event_kind>> acted;
  std::map<machine_phase, int> machines_per_phase;
  for (const auto& setup : phase_setups()) {
    drain_machine machine{setup.config};
    duration now{0};
    for (const auto& [at, event] : setup.events) {
      now = at;
      machine.step(event(machine.state()), now);
    }
    INFO("machine: " << setup.name);
    REQUIRE(machine_phase_of(machine.state()) == setup.phase);
    ++machines_per_phase[setup.phase];
    now += 1s;
    for (std::size_t k = 0; k < drain_event_kind_count; ++k) {
      const auto kind = static_cast<drain_event_kind>(k);
      const auto& cell = drain_table_cell(setup.phase, kind);
      INFO(to_string(setup.phase) << " × " << to_string(kind) << ": " << cell.name);
      if (cell.outcome == drain_outcome::misuse) continue;  // asserted: it would abort
      const auto probe = probe_for(kind, machine.state(), now);
      REQUIRE(event_kind_of(probe) == kind);
      auto copy = machine;
      const auto effects = copy.step(probe, now);
      const auto expected = unchanged_by(machine.state(), probe);
      switch (cell.outcome) {
        case drain_outcome::unchanged:
          CHECK(effects.empty());
          CHECK(same_state(copy.state(), expected));
          break;
        case drain_outcome::noted:
          CHECK_FALSE(effects.empty());
          CHECK(only_reports(effects));
          CHECK(same_state(copy.state(), expected));
          break;
        case drain_outcome::handled:
          if (!same_state(copy.state(), expected) || !only_reports(effects))
            acted.insert({setup.phase, kind});
          break;
        case drain_outcome::misuse:
          break;
      }
    }
  }
  // Every phase has its machines, and every handled cell acted in one of them at least.
  for (std::size_t p = 0; p < machine_phase_count; ++p) {
    const auto phase = static_cast<machine_phase>(p);
    INFO("phase " << to_string(phase));
    CHECK(machines_per_phase[phase] > 0);
    for (std::size_t k = 0; k < drain_event_kind_count; ++k) {
      const auto kind = static_cast<drain_event_kind>(k);
      const auto& cell = drain_table_cell(phase, kind);
      INFO(to_string(kind) << ": " << cell.name);
      if (cell.outcome == drain_outcome::handled) CHECK(acted.count({phase, kind}) == 1);
    }
  }
}

TEST_CASE("the only misuse in the drain table is a second warden_started") {
  for (std::size_t p = 0; p < machine_phase_count; ++p) {
    for (std::size_t k = 0; k < drain_event_kind_count; ++k) {
      const auto phase = static_cast<machine_phase>(p);
      const auto kind = static_cast<drain_event_kind>(k);
      const bool second_start =
          kind == drain_event_kind::warden_started && phase != machine_phase::starting;
      INFO(to_string(phase) << " × " << to_string(kind));
      CHECK((drain_table_cell(phase, kind).outcome == drain_outcome::misuse) == second_start);
    }
  }
}

// See journal_compaction.hpp.
#include "src/journal/journal_compaction.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "src/supervision/restart_decision.hpp"

namespace runwarden {

namespace {

// Whether the state's restart budget still counts restarts at `now`: those are kept as history.
bool restarts_count_at(const drain_config& config, const drain_state& state, instant now) {
  auto restarts = state.recent_restarts;
  forget_restarts_outside_window(restarts, config.restart.budget_window, now);
  return !restarts.empty();
}

using timed_event = std::pair<instant, drain_event>;

// Before the spawn: the jobs of the runners before this one, as one count that rose and
// fell, and the load the state still shows from them when this runner has shown none.
void append_earlier_loads(std::vector<timed_event>& events, const drain_state& state,
                          const journal_history& history, instant at) {
  const auto earlier = history.jobs_before_this_runner;
  if (earlier > 0)
    events.emplace_back(at, runner_load_observed{static_cast<std::uint32_t>(earlier)});
  if (history.loaded_this_runner) {
    if (earlier > 0) events.emplace_back(at, runner_load_observed{0u});
  } else if (earlier > 0 || state.jobs_scraped || !state.runner_reported_state.empty()) {
    events.emplace_back(at, runner_load_observed{state.jobs_scraped, state.runner_reported_state});
  }
}

// After it: this runner's rises of its metrics' count (up, back to none, up to the last
// count seen), then its present load.
void append_runner_loads(std::vector<timed_event>& events, const drain_state& state,
                         const journal_history& history, instant now) {
  if (!history.loaded_this_runner) return;
  const auto rises = history.counted_rises;
  const auto last = history.last_running;
  if (rises > last) {
    events.emplace_back(now, runner_load_observed{static_cast<std::uint32_t>(rises - last)});
    events.emplace_back(now, runner_load_observed{0u});
  }
  if (!state.jobs_scraped && last > 0) events.emplace_back(now, runner_load_observed{last});
  events.emplace_back(now, runner_load_observed{state.jobs_scraped, state.runner_reported_state});
}

// The reported starts as starts and ends of jobs that ended, then the jobs still running;
// a runner that reports and has none says only that.
void append_reported_starts(std::vector<timed_event>& events, const drain_state& state,
                            std::uint64_t ended, instant now) {
  for (std::uint64_t i = 0; i < ended; ++i) {
    const auto id = "compacted-" + std::to_string(i + 1);
    events.emplace_back(now, job_reported{job_report_kind::started, id});
    events.emplace_back(now, job_reported{job_report_kind::ended, id});
  }
  for (const auto& job : state.jobs_reported.jobs())
    events.emplace_back(now, job_reported{job_report_kind::started, job});
  if (state.jobs_reported.reporting() && state.jobs_reported.jobs().empty())
    events.emplace_back(now, job_reported{job_report_kind::ended, ""});
}

// The jobs reported and ended, to be written again: nullopt when they cannot be.
std::optional<std::uint64_t> ended_reported_jobs(const drain_state& state,
                                                 const journal_history& history) {
  if (!state.jobs_reported.reporting()) {
    if (history.reported_starts > 0) return std::nullopt;
    return 0;
  }
  const auto starts = history.reported_starts;
  const auto running = state.jobs_reported.jobs().size();
  if (starts < running || starts - running > compacted_ended_jobs_max) return std::nullopt;
  return starts - running;
}

// Timers are compared by when they are due: their ids are the fresh machine's own.
bool same_due(const std::optional<armed_timer>& a, const std::optional<armed_timer>& b) {
  return a.has_value() == b.has_value() && (!a || a->at == b->at);
}

bool same_timers(const armed_timers& a, const armed_timers& b) {
  return same_due(a.restart_backoff, b.restart_backoff) &&
         same_due(a.drain_deadline, b.drain_deadline) && same_due(a.kill_timeout, b.kill_timeout) &&
         same_due(a.lifecycle_heartbeat, b.lifecycle_heartbeat) &&
         same_due(a.lifecycle_expiry, b.lifecycle_expiry) &&
         same_due(a.runner_start_grace, b.runner_start_grace) &&
         same_due(a.unregistration_last_attempt, b.unregistration_last_attempt) &&
         same_due(a.unregistration_alert, b.unregistration_alert);
}

// What recovery reads from the rebuilt state is what it read from the original.
// Whether the runner answered matters only within its start grace (drain_signals.cpp).
bool rebuilds(const drain_config& config, const drain_state& rebuilt, const drain_state& state,
              instant now) {
  const bool in_grace = now < *state.runner_started_at + config.runner_start_grace;
  return rebuilt.status == state.status && rebuilt.runner == state.runner &&
         rebuilt.runner_pid == state.runner_pid &&
         rebuilt.runner_identity == state.runner_identity &&
         rebuilt.runner_started_at == state.runner_started_at &&
         (!in_grace || rebuilt.runner_answered == state.runner_answered) &&
         rebuilt.jobs_running == state.jobs_running && rebuilt.jobs_scraped == state.jobs_scraped &&
         rebuilt.jobs_reported == state.jobs_reported &&
         rebuilt.runner_reported_state == state.runner_reported_state &&
         same_timers(rebuilt.timers, state.timers);
}

}  // namespace

void observe_entry(journal_history& history, const drain_event& event, instant at,
                   const drain_state& after, std::size_t reported_before) {
  if (std::holds_alternative<warden_started>(event)) {
    if (!history.first_started_at) history.first_started_at = at;
  } else if (const auto* spawned = std::get_if<runner_spawned>(&event)) {
    if (after.runner != runner_state::alive || after.runner_pid != spawned->pid) return;
    history.jobs_before_this_runner += std::max(history.reported_starts, history.counted_rises);
    history.reported_starts = 0;
    history.counted_rises = 0;
    history.last_running = 0;
    history.loaded_this_runner = false;
  } else if (std::holds_alternative<job_reported>(event)) {
    if (after.jobs_reported.jobs().size() > reported_before) ++history.reported_starts;
  } else if (std::holds_alternative<runner_load_observed>(event)) {
    history.loaded_this_runner = true;
    if (!after.jobs_scraped) return;
    const auto running = *after.jobs_scraped;
    if (running > history.last_running) history.counted_rises += running - history.last_running;
    history.last_running = running;
  }
}

std::optional<std::vector<compacted_step>> compacted_steps(const drain_config& config,
                                                           const drain_state& state,
                                                           const journal_history& history,
                                                           instant now) {
  if (state.status != warden_status::running || state.runner != runner_state::alive ||
      !state.runner_pid || !state.runner_started_at || !history.first_started_at)
    return std::nullopt;
  if (restarts_count_at(config, state, now)) return std::nullopt;
  // Older instants than now, in order: a machine stepped out of order rebuilds nothing.
  const auto started_at = *history.first_started_at;
  if (started_at > *state.runner_started_at || *state.runner_started_at > now) return std::nullopt;
  constexpr auto count_max = std::numeric_limits<std::uint32_t>::max();
  if (history.jobs_before_this_runner > count_max || history.counted_rises > count_max)
    return std::nullopt;
  const auto ended = ended_reported_jobs(state, history);
  if (!ended) return std::nullopt;
  // The runner's identity goes with its pid: a compacted journal proves its runner as the
  // original did (src/runner/process_identity.hpp).
  const auto spawned_at = *state.runner_started_at;
  std::vector<timed_event> events{{started_at, warden_started{}}};
  append_earlier_loads(events, state, history, spawned_at);
  events.emplace_back(spawned_at, runner_spawned{*state.runner_pid, state.runner_identity});
  append_runner_loads(events, state, history, now);
  append_reported_starts(events, state, *ended, now);
  drain_machine fresh{config};
  std::vector<compacted_step> steps;
  for (auto& [at, event] : events) {
    auto effects = fresh.step(event, at);
    steps.push_back({at, std::move(event), std::move(effects)});
  }
  if (!rebuilds(config, fresh.state(), state, now))
    return std::nullopt;  // a machine that no longer rebuilds this way: keep the history
  return steps;
}

}  // namespace runwarden

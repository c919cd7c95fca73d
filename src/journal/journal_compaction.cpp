// See journal_compaction.hpp.
#include "src/journal/journal_compaction.hpp"

namespace runwarden {

std::optional<std::vector<compacted_step>> compacted_steps(const drain_config& config,
                                                           const drain_state& state, instant now) {
  if (state.status != warden_status::running || state.runner != runner_state::alive ||
      !state.runner_pid)
    return std::nullopt;
  // The runner's identity goes with its pid: a compacted journal proves its runner as the
  // original did (src/runner/process_identity.hpp).
  std::vector<drain_event> events{warden_started{},
                                  runner_spawned{*state.runner_pid, state.runner_identity}};
  if (state.jobs_scraped || !state.runner_reported_state.empty())
    events.emplace_back(runner_load_observed{state.jobs_scraped, state.runner_reported_state});
  // The reported jobs, each started again; a runner that reports and has none says only that.
  for (const auto& job : state.jobs_reported.jobs())
    events.emplace_back(job_reported{job_report_kind::started, job});
  if (state.jobs_reported.reporting() && state.jobs_reported.jobs().empty())
    events.emplace_back(job_reported{job_report_kind::ended, ""});
  drain_machine fresh{config};
  std::vector<compacted_step> steps;
  for (auto& event : events) {
    auto effects = fresh.step(event, now);
    steps.push_back({std::move(event), std::move(effects)});
  }
  const auto& rebuilt = fresh.state();
  if (rebuilt.status != state.status || rebuilt.runner_pid != state.runner_pid ||
      rebuilt.runner_identity != state.runner_identity ||
      rebuilt.jobs_running != state.jobs_running || rebuilt.jobs_scraped != state.jobs_scraped ||
      rebuilt.jobs_reported != state.jobs_reported ||
      rebuilt.runner_reported_state != state.runner_reported_state)
    return std::nullopt;  // a machine that no longer rebuilds this way: keep the history
  return steps;
}

}  // namespace runwarden

// See drain_jobs.hpp.
#include "src/drain/drain_jobs.hpp"

#include "src/drain/drain_signals.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// The runner's combined job count changed (metrics or reports): kept, and said when its
// last job finished during a drain.
void jobs_changed(drain_step& step, std::optional<std::uint32_t> jobs_running) {
  auto& state = step.state;
  const auto before = state.jobs_running;
  state.jobs_running = jobs_running;
  const bool last_job_finished = jobs_running == 0u && before != 0u;
  if (last_job_finished && state.status == warden_status::shutting_down &&
      state.runner == runner_state::alive)
    say(step, report_level::info, "the runner's last job finished; waiting for the runner to exit");
}

}  // namespace

void observe_load(drain_step& step, const runner_load_observed& event) {
  auto& state = step.state;
  const auto combined = combined_jobs(event.jobs_running, state.jobs_reported);
  // A runner told to drain takes no new job: once it said it ran none, a scrape that fails
  // as it shuts down (its metrics server goes first) does not make that unknown again. It
  // is what proves an end nobody could read lost no job (continue_wind_down).
  const bool drained_idle = state.jobs_running == 0u && state.stage != escalation::none;
  if (!combined && drained_idle) return;
  state.jobs_scraped = event.jobs_running;
  state.runner_reported_state = event.runner_state;
  jobs_changed(step, combined);
  // Metrics that answer come from a runner past its start, its signal handlers in place.
  if (event.jobs_running && state.runner == runner_state::alive) {
    state.runner_answered = true;
    if (state.timers.runner_start_grace) {
      state.timers.runner_start_grace.reset();
      on_runner_ready(step);
    }
  }
}

// A report is the runner's own (its hook ran): one that arrives after it exited, or before
// the next one started, belongs to no runner and is dropped.
void note_stray(drain_step& step, const job_reported& event) {
  RUNWARDEN_ASSERT(step.state.runner != runner_state::alive ||
                   step.state.status == warden_status::gone);
  say(step, report_level::debug,
      std::string{"ignored a job report ("} + to_string(event.kind) + ") while no runner runs");
}

void count_reported_job(drain_step& step, const job_reported& event) {
  auto& state = step.state;
  RUNWARDEN_ASSERT(state.runner == runner_state::alive && state.status != warden_status::gone);
  const auto outcome = state.jobs_reported.apply(event);
  switch (outcome) {
    case job_report_outcome::started:
    case job_report_outcome::ended:
      say(step, report_level::info, "job " + event.job_id + " " + to_string(event.kind));
      break;
    case job_report_outcome::already_started:
      say(step, report_level::debug, "job " + event.job_id + " was reported started already");
      break;
    case job_report_outcome::unknown_job:
      if (!event.job_id.empty())
        say(step, report_level::debug, "job " + event.job_id + " ended, but was not running");
      break;
    case job_report_outcome::full:
      say(step, report_level::warning,
          "job " + event.job_id + " not counted: " + std::to_string(reported_jobs_max) +
              " reported jobs have not ended (missed ends?)");
      break;
  }
  jobs_changed(step, combined_jobs(state.jobs_scraped, state.jobs_reported));
}

}  // namespace runwarden

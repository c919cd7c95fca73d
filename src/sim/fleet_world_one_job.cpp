// See fleet_world.hpp. The one-job runner (GitHub's --ephemeral, gitlab-runner run-single
// --max-builds 1): it takes one job, finishes it and exits by itself; and the job hooks a
// runner may report its jobs with (`runwarden ctl job start|end ID`, GitHub's
// ACTIONS_RUNNER_HOOK_JOB_STARTED and _COMPLETED). The reports go to the instance's warden
// through the control API's own path (fleet_run.cpp); the world only says when they are made.
#include <string>

#include "src/sim/fleet_checker.hpp"
#include "src/sim/fleet_world.hpp"

namespace runwarden {

namespace {

// A one-job runner exits this long after its job ended: its completed hook has run (its
// report reached runwarden before the end does, as the hook finishes before the runner
// exits) and it has cleaned up.
constexpr sim_seconds one_job_exit_lag = 1;

}  // namespace

bool fleet_world::takes_no_more_jobs(const sim_runner& runner) const {
  return scenario_.one_job && runner.jobs_taken >= 1;
}

void fleet_world::job_taken(std::size_t index, const sim_job& job) {
  ++instances_[index].runner.jobs_taken;
  if (scenario_.job_hooks && on_job_report)
    on_job_report(index, job_report_kind::started, std::to_string(job.id));
}

void fleet_world::job_finished(std::size_t index, const sim_job& job, sim_seconds now) {
  auto& runner = instances_[index].runner;
  if (scenario_.job_hooks && on_job_report)
    on_job_report(index, job_report_kind::ended, std::to_string(job.id));
  if (takes_no_more_jobs(runner) && !runner.draining) runner.exit_due = now + one_job_exit_lag;
}

// A one-job runner whose job is done exits with status 0. GitHub deletes an ephemeral
// runner's registration itself once its job is done, so runwarden finds nothing to delete.
void fleet_world::one_job_exits(sim_seconds now) {
  for (std::size_t index = 0; index < instances_.size(); ++index) {
    auto& instance = instances_[index];
    auto& runner = instance.runner;
    if (!runner.alive || !runner.exit_due || now < *runner.exit_due || !runner.jobs.empty())
      continue;
    runner.exit_due.reset();
    if (scenario_.api == runner_api::github && instance.registered) {
      instance.registered = false;
      instance.unregistered_at = now;
    }
    runner_exit(index, exit_status{}, now);
  }
}

void fleet_world::retirement_decided(std::size_t index, sim_seconds now) {
  instances_[index].lane.marks.push_back({now, "retirement_decided"});
  checker_->retirement_decided(now, instances_[index]);
}

}  // namespace runwarden

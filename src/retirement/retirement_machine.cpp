// See retirement_machine.hpp.
#include "src/retirement/retirement_machine.hpp"

#include <algorithm>
#include <utility>

#include "src/util/assert.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

std::string describe(std::chrono::milliseconds value) { return format_duration(value); }

}  // namespace

class retirement_machine::stepper {
 public:
  stepper(const retirement_policy& policy, retirement_state& state, instant now)
      : policy_(policy), state_(state), now_(now) {}

  std::vector<retirement_effect> take_effects() { return std::move(effects_); }

  // A warden restarted from its journal comes here too: neither bound may start over, since
  // a machine whose warden restarts more often than the bound would never recycle.
  void operator()(const retirement_watch_began& event) {
    if (decided()) return;
    if (state_.idle_due)
      effects_.push_back(arm_retirement_timer{retirement_timer::idle, *state_.idle_due});
    if (!policy_.recycle.after_uptime) return;
    if (event.machine_booted_at)
      state_.uptime_due = *event.machine_booted_at + *policy_.recycle.after_uptime;
    else if (!state_.uptime_due)
      state_.uptime_due = now_ + *policy_.recycle.after_uptime;
    effects_.push_back(arm_retirement_timer{retirement_timer::uptime, *state_.uptime_due});
  }

  void operator()(const runner_came_up&) {
    // The jobs of the runner before this one stay counted for recycling.
    state_.jobs_before_this_runner += runner_jobs();
    state_.reported_starts = 0;
    state_.counted_rises = 0;
    state_.last_running = 0;
    state_.idle_due.reset();
    if (decided() || policy_.after_exit != after_exit_action::retire) return;
    if (!policy_.idle_retire_after) return;
    state_.idle_due = now_ + *policy_.idle_retire_after;
    effects_.push_back(arm_retirement_timer{retirement_timer::idle, *state_.idle_due});
  }

  void operator()(const job_began&) {
    ++state_.reported_starts;
    job_taken();
  }

  void operator()(const running_jobs_seen& event) {
    if (event.running > state_.last_running)
      state_.counted_rises += event.running - state_.last_running;
    state_.last_running = event.running;
    if (event.running > 0) job_taken();
  }

  void operator()(const runner_went_down& event) {
    if (decided()) return;
    const bool job_running = event.jobs_running.value_or(0) > 0;
    const std::string how = "the runner ended (" + to_string(event.status) + ")";
    if (policy_.after_exit == after_exit_action::retire) {
      if (job_running && !event.status.normal()) {
        say(report_level::error, how +
                                     " with a job running: the job is lost; retiring the "
                                     "instance, which may hold the job's debris");
        // The reason travels in the drain's webhook (drain_started, trigger "retirement").
        decide(retirement_cause::crashed_mid_job, instance_end::terminate,
               "the runner crashed mid-job (" + to_string(event.status) + "): its job is lost");
        return;
      }
      if (job_running || runner_jobs() > 0) {
        decide(retirement_cause::job_done, instance_end::terminate, how + " after its job");
        return;
      }
      if (event.verdict == restart_verdict::policy_keeps_down) {
        decide(retirement_cause::ended_without_job, instance_end::terminate,
               how + " before taking a job, and the restart policy keeps it down");
        return;
      }
    }
    if (event.verdict != restart_verdict::budget_spent) return;
    switch (policy_.on_give_up) {
      case give_up_choice::exit:
        return;  // the drain machine gives up as it always did
      case give_up_choice::unhealthy:
        decide(retirement_cause::restart_budget_spent, instance_end::mark_unhealthy,
               how + " and the restart budget is spent");
        return;
      case give_up_choice::retire:
        decide(retirement_cause::restart_budget_spent, instance_end::terminate,
               how + " and the restart budget is spent");
        return;
    }
  }

  void operator()(const disk_usage_seen& event) {
    const auto& bound = policy_.recycle.disk_used_percent_max;
    if (decided() || !bound || event.used_percent < *bound) return;
    decide(retirement_cause::recycle_disk, end_for_recycling(),
           policy_.recycle.disk_path + " is " + std::to_string(event.used_percent) +
               "% full (recycle at " + std::to_string(*bound) + "%)");
  }

  void operator()(const retirement_timer_fired& event) {
    if (decided()) return;
    auto& due = event.kind == retirement_timer::idle ? state_.idle_due : state_.uptime_due;
    if (!due || now_ < *due) return;  // stale: a later runner re-armed it, or it was cleared
    due.reset();
    if (event.kind == retirement_timer::uptime) {
      decide(retirement_cause::recycle_uptime, end_for_recycling(),
             "up for " + describe(*policy_.recycle.after_uptime) + ", the recycling bound");
      return;
    }
    if (runner_jobs() > 0) return;
    decide(retirement_cause::idle, instance_end::terminate,
           "the runner took no job within " + describe(*policy_.idle_retire_after));
  }

 private:
  bool decided() const { return state_.decided.has_value(); }

  std::uint64_t runner_jobs() const {
    return std::max(state_.reported_starts, state_.counted_rises);
  }

  // A job began: the idle bound no longer applies, and the job count may call for recycling.
  void job_taken() {
    state_.idle_due.reset();
    const auto& bound = policy_.recycle.after_jobs;
    if (decided() || !bound) return;
    const auto total = state_.jobs_before_this_runner + runner_jobs();
    if (total < *bound) return;
    decide(retirement_cause::recycle_jobs, end_for_recycling(),
           std::to_string(total) +
               " jobs taken, the recycling bound: the runner finishes "
               "this one and takes no other");
  }

  static instance_end end_for_recycling() { return instance_end::terminate; }

  void decide(retirement_cause cause, instance_end end, std::string reason) {
    RUNWARDEN_ASSERT(!state_.decided);
    state_.decided = cause;
    state_.idle_due.reset();
    state_.uptime_due.reset();
    say(report_level::warning,
        std::string{end == instance_end::mark_unhealthy ? "marking the instance unhealthy: "
                                                        : "retiring the instance: "} +
            reason);
    effects_.push_back(retire_instance{cause, end, std::move(reason)});
  }

  void say(report_level level, std::string text) {
    effects_.push_back(report_retirement{level, std::move(text)});
  }

  const retirement_policy& policy_;
  retirement_state& state_;
  instant now_;
  std::vector<retirement_effect> effects_;
};

retirement_machine::retirement_machine(retirement_policy policy) : policy_(std::move(policy)) {
  RUNWARDEN_ASSERT(!policy_.recycle.after_jobs || *policy_.recycle.after_jobs > 0);
  RUNWARDEN_ASSERT(!policy_.recycle.disk_used_percent_max ||
                   *policy_.recycle.disk_used_percent_max <= 100);
}

std::vector<retirement_effect> retirement_machine::step(const retirement_event& event,
                                                        instant now) {
  stepper step{policy_, state_, now};
  std::visit(step, event);
  return step.take_effects();
}

std::uint64_t retirement_machine::jobs_taken() const {
  return state_.jobs_before_this_runner + std::max(state_.reported_starts, state_.counted_rises);
}

std::string_view to_string(retirement_cause cause) {
  switch (cause) {
    case retirement_cause::job_done:
      return "the one-job runner's job is done";
    case retirement_cause::crashed_mid_job:
      return "the one-job runner crashed mid-job";
    case retirement_cause::ended_without_job:
      return "the one-job runner ended without a job";
    case retirement_cause::restart_budget_spent:
      return "the restart budget is spent";
    case retirement_cause::recycle_jobs:
      return "recycling after its jobs";
    case retirement_cause::recycle_uptime:
      return "recycling after its uptime";
    case retirement_cause::recycle_disk:
      return "recycling for its disk";
    case retirement_cause::idle:
      return "the one-job runner took no job";
  }
  return "unknown cause";
}

std::string_view retirement_cause_token(retirement_cause cause) {
  switch (cause) {
    case retirement_cause::job_done:
      return "job_done";
    case retirement_cause::crashed_mid_job:
      return "crashed_mid_job";
    case retirement_cause::ended_without_job:
      return "ended_without_job";
    case retirement_cause::restart_budget_spent:
      return "restart_budget_spent";
    case retirement_cause::recycle_jobs:
      return "recycle_jobs";
    case retirement_cause::recycle_uptime:
      return "recycle_uptime";
    case retirement_cause::recycle_disk:
      return "recycle_disk";
    case retirement_cause::idle:
      return "idle";
  }
  return "unknown";
}

std::string_view to_string(instance_end end) {
  return end == instance_end::mark_unhealthy ? "mark_unhealthy" : "terminate";
}

bool cause_consumes_capacity(retirement_cause cause) {
  switch (cause) {
    case retirement_cause::job_done:
    case retirement_cause::ended_without_job:
    case retirement_cause::idle:
      return true;
    case retirement_cause::crashed_mid_job:
    case retirement_cause::restart_budget_spent:
    case retirement_cause::recycle_jobs:
    case retirement_cause::recycle_uptime:
    case retirement_cause::recycle_disk:
      return false;
  }
  return false;
}

std::string_view to_string(after_exit_action action) {
  return action == after_exit_action::retire ? "retire" : "restart";
}

std::string_view to_string(give_up_choice choice) {
  switch (choice) {
    case give_up_choice::exit:
      return "exit";
    case give_up_choice::unhealthy:
      return "unhealthy";
    case give_up_choice::retire:
      return "retire";
  }
  return "exit";
}

}  // namespace runwarden

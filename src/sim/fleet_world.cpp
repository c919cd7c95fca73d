// See fleet_world.hpp. The group, the instances' lives and the jobs; the HTTP services are
// in fleet_world_services.cpp, the Auto Scaling API in autoscaling_service.cpp, how Azure and
// Google Cloud take instances away in fleet_world_clouds.cpp.
#include "src/sim/fleet_world.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>

#include <fmt/format.h>

#include "src/sim/fleet_checker.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

// A spot notice comes this long before the instance is taken back: two minutes on AWS; an
// Azure Preempt's NotBefore is at least 30 s ahead; Google stops a preempted VM 30 s after
// instance/preempted turns TRUE.
constexpr sim_seconds spot_notice_seconds = 120;
constexpr sim_seconds azure_preempt_notice_seconds = 30;
constexpr sim_seconds gcp_preemption_seconds = 30;
// An Azure VM whose events are approved is deleted this long after the approval.
constexpr sim_seconds azure_deletion_lag = 1;
// GitHub marks a runner idle this long after its last job ended; a DELETE before then is
// answered 422, busy.
constexpr sim_seconds github_idle_lag = 3;
// An instance refresh replaces this share of the group at a time (min healthy 90 %).
constexpr double refresh_batch_share = 0.1;

bool in_group(const sim_instance& instance) {
  return !instance.gone && instance.lifecycle_state.rfind("Terminat", 0) != 0;
}

}  // namespace

fleet_world::fleet_world(fleet_scenario scenario, std::uint64_t seed)
    : scenario_(std::move(scenario)),
      checker_(std::make_unique<fleet_checker>(scenario_)),
      random_state_(seed),
      desired_(scenario_.desired) {
  desired_samples_.push_back({0, desired_});
  queue_samples_.push_back({0, 0});
}

fleet_world::~fleet_world() = default;

double fleet_world::draw() { return next_unit_random(random_state_); }

bool fleet_world::faulty(sim_seconds now) const {
  const auto& until = scenario_.faults.faults_until;
  return !until || now < static_cast<double>(until->count());
}

void fleet_world::mark(std::size_t instance, sim_seconds at, std::string kind) {
  instances_[instance].lane.marks.push_back({at, std::move(kind)});
}

std::optional<std::size_t> fleet_world::index_of(const std::string& instance_id) const {
  for (std::size_t i = 0; i < instances_.size(); ++i)
    if (instances_[i].id == instance_id) return i;
  return std::nullopt;
}

void fleet_world::set_state(sim_instance& instance, const std::string& state, sim_seconds now) {
  if (instance.lifecycle_state == state) return;
  instance.lifecycle_state = state;
  auto& spans = instance.lane.lifecycle;
  if (!spans.empty() && !spans.back().to) spans.back().to = now;
  spans.push_back({now, std::nullopt, state});
}

void fleet_world::set_runner_span(sim_instance& instance, const std::string& state,
                                  sim_seconds now) {
  auto& spans = instance.lane.runner;
  if (!spans.empty() && !spans.back().to) {
    if (spans.back().state == state) return;
    spans.back().to = now;
  }
  spans.push_back({now, std::nullopt, state});
}

void fleet_world::set_desired(int desired, sim_seconds now) {
  checker_->desired_set(now, desired);
  if (desired == desired_) return;
  desired_ = desired;
  desired_samples_.push_back({now, desired});
}

void fleet_world::sample_queue(sim_seconds now) {
  const int queued = static_cast<int>(queue_.size());
  if (queue_samples_.back().value != queued) queue_samples_.push_back({now, queued});
}

void fleet_world::launch(sim_seconds now) {
  sim_instance instance;
  instance.id = fmt::format("i-{:06d}", instances_.size() + 1);
  instance.launched = now;
  instance.lane.instance_id = instance.id;
  set_state(instance, scenario_.launch_hook ? "Pending:Wait" : "Pending", now);
  if (scenario_.launch_hook) {
    const auto heartbeat = static_cast<double>(scenario_.heartbeat_timeout.count());
    instance.launch_action = sim_lifecycle_action{
        "launch", now, now + heartbeat,
        now + std::min(static_cast<double>(scenario_.global_timeout.count()), 100 * heartbeat)};
  }
  if (scenario_.cloud == fleet_cloud::azure && scenario_.spot_share > 0)
    instance.azure_spot = draw() < scenario_.spot_share;
  instances_.push_back(std::move(instance));
  ++books_.launches;
}

void fleet_world::begin_termination(std::size_t index, sim_seconds now, bool decrement) {
  auto& instance = instances_[index];
  if (!in_group(instance)) return;
  if (decrement) set_desired(desired_ - 1, now);
  instance.target_state = "Terminated";
  if (!instance.booted) return terminate_now(index, now, "terminated before it booted");
  if (scenario_.cloud == fleet_cloud::gcp)
    return shut_down_gcp(index, static_cast<double>(scenario_.shutdown_period.count()), now);
  if (scenario_.cloud == fleet_cloud::azure) {
    if (instance.azure_spot)
      return terminate_now(index, now, "a Spot VM was deleted (no terminate notification)");
    return notify_azure_termination(
        index, "Terminate", static_cast<double>(scenario_.terminate_notification.count()), now);
  }
  // A launch action still waiting ends with the termination: a completion that comes later
  // finds no active action (as AWS answers it) and cannot turn the instance InService again.
  if (instance.launch_action && !instance.launch_action->ended)
    end_action(instance, *instance.launch_action, "superseded", now);
  const auto heartbeat = static_cast<double>(scenario_.heartbeat_timeout.count());
  instance.terminate_action = sim_lifecycle_action{
      "terminate", now, now + heartbeat,
      now + std::min(static_cast<double>(scenario_.global_timeout.count()), 100 * heartbeat)};
  set_state(instance, "Terminating:Wait", now);
}

void fleet_world::end_action(sim_instance& instance, sim_lifecycle_action& action,
                             std::string outcome, sim_seconds now) {
  action.ended = now;
  action.outcome = std::move(outcome);
  // Taken back with its hook still open, or terminated before its launch hook was answered.
  if (action.outcome == "instance_gone" || action.outcome == "superseded") return;
  if (action.outcome == "timed_out") {
    ++books_.lifecycle_timed_out;
    instance.lane.marks.push_back({now, "hook_timed_out"});
  } else {
    ++books_.lifecycle_completed;
    instance.lane.marks.push_back({now, "completed"});
  }
}

void fleet_world::terminate_now(std::size_t index, sim_seconds now, const std::string& why) {
  auto& instance = instances_[index];
  if (instance.gone) return;
  auto& action = instance.terminate_action;
  if (action && !action->ended) {
    // Taken back with its hook open: fine while faults keep the wind-down retrying.
    wind_down_at_reclaim(instance, now);
    end_action(instance, *action, "instance_gone", now);
  }
  if (instance.runner.alive) {
    kill_jobs(index, why, now);
    instance.runner.alive = false;
    instance.runner.exited_at = now;
    set_runner_span(instance, "exited", now);
  }
  instance.gone = true;
  if (action && !action->event_id.empty()) ++azure_incarnation_;  // its event leaves the list
  std::erase_if(held_reads_, [&](const auto& read) { return read.instance == index; });
  set_state(instance, "Terminated", now);
  if (instance.booted && on_gone) on_gone(index);
}

// A spot reclaim, or a terminate hook's timeout, while the terminate action is open: the
// checker judges the wind-down; one that faults kept retrying is counted.
void fleet_world::wind_down_at_reclaim(const sim_instance& instance, sim_seconds now) {
  if (checker_->reclaimed(now, instance)) ++books_.wind_down_at_reclaim;
}

std::string fleet_world::reclaim_reason(const sim_lifecycle_action& action) const {
  if (action.hook == "Preempt") return "the Spot VM was evicted";
  if (action.hook == "Terminate") return "the terminate notification ran out";
  return "the terminate hook timed out";
}

void fleet_world::kill_jobs(std::size_t index, const std::string& why, sim_seconds now) {
  auto& instance = instances_[index];
  if (!instance.runner.jobs.empty())
    checker_->jobs_killed(now, instance, instance.runner.jobs.size(), why);
  for (const auto job_index : instance.runner.jobs) {
    auto& job = jobs_[job_index];
    job.ended = now;
    job.killed_by = why;
    ++books_.jobs_killed[why];
    instance.github_busy_until = now + github_idle_lag;
    instance.lane.marks.push_back({now, "job_killed"});
    for (auto& bar : instance.lane.jobs)
      if (bar.id == job.id) bar = {job.id, *job.started, now, true};
  }
  instance.runner.jobs.clear();
}

std::int64_t fleet_world::spawn_runner(std::size_t index, sim_seconds now) {
  auto& runner = instances_[index].runner;
  const bool draining = draining_of && draining_of(index);
  checker_->runner_spawned(now, instances_[index], runner, draining,
                           draining && drain_deadline_of ? drain_deadline_of(index) : std::nullopt);
  runner = sim_runner{.pid = next_pid_++,
                      .alive = true,
                      .draining = false,
                      .jobs = {},
                      .exited_at = std::nullopt,
                      .gated = true};
  return runner.pid;
}

void fleet_world::release_runner(std::size_t index, std::int64_t pid, bool go, sim_seconds now) {
  auto& instance = instances_[index];
  auto& runner = instance.runner;
  if (!runner.alive || runner.pid != pid || !runner.gated) return;
  if (!go) {  // ends unrun, its end no one's to hear
    runner.alive = false;
    runner.exited_at = now;
    return;
  }
  runner.gated = false;
  instance.registered = true;  // gitlab-runner registers when it starts
  set_runner_span(instance, "running", now);
}

void fleet_world::runner_exit(std::size_t index, exit_status status, sim_seconds now) {
  auto& instance = instances_[index];
  instance.runner.alive = false;
  instance.runner.exited_at = now;
  instance.runner.status = status;
  set_runner_span(instance, "exited", now);
  if (on_runner_exit) on_runner_exit(index, status);
}

void fleet_world::signal_runner(std::size_t index, int signal_number, sim_seconds now) {
  auto& instance = instances_[index];
  if (!instance.runner.alive) return;
  // Still at its start gate: every signal runwarden sends ends it by default action.
  if (instance.runner.gated) return runner_exit(index, exit_status{true, signal_number}, now);
  if (signal_number == SIGQUIT) {
    instance.runner.draining = true;
    set_runner_span(instance, "draining", now);
    return;
  }
  if (signal_number != SIGTERM && signal_number != SIGKILL) return;
  // gitlab-runner reads SIGTERM as "abort every job now": the jobs die with it.
  if (!instance.runner.jobs.empty()) {
    unjudged_signals_.push_back({index, signal_number, instance.runner.jobs.size(), now});
    kill_jobs(index, "forced at the drain deadline", now);
  }
  runner_exit(index, signal_number == SIGKILL ? exit_status{true, SIGKILL} : exit_status{false, 1},
              now);
}

void fleet_world::judge_killing_signals() {
  for (const auto& signal : unjudged_signals_) {
    checker_->jobs_killed_by_signal(
        signal.at, instances_[signal.instance], signal.jobs, signal.signal_number,
        drain_deadline_of ? drain_deadline_of(signal.instance) : std::nullopt);
  }
  unjudged_signals_.clear();
}

void fleet_world::arrivals(sim_seconds now) {
  const double expected = scenario_.jobs_per_minute / 60.0 * (now - last_tick_);
  // A Poisson count by inversion: exact enough for rates of a few per second.
  std::uint32_t count = 0;
  for (double p = std::exp(-expected), sum = p, u = draw(); u > sum && count < 1000;) {
    ++count;
    p *= expected / count;
    sum += p;
  }
  for (const auto& burst : scenario_.bursts) {
    const auto at = static_cast<double>(burst.at.count());
    if (at > last_tick_ && at <= now) count += burst.jobs;
  }
  const double low = static_cast<double>(scenario_.job_duration_min.count());
  const double high = static_cast<double>(scenario_.job_duration_max.count());
  for (std::uint32_t i = 0; i < count; ++i) {
    queue_.push_back(jobs_.size());
    jobs_.push_back({jobs_.size() + 1, now, std::round(low + (high - low) * draw())});
  }
}

void fleet_world::assign_jobs(sim_seconds now) {
  if (queue_.empty() || instances_.empty()) return;
  // gitlab-runner polls for jobs every few seconds; rotating the start spreads the load.
  const auto count = instances_.size();
  const auto first = static_cast<std::size_t>(now) % count;
  for (std::size_t k = 0; k < count && !queue_.empty(); ++k) {
    auto& instance = instances_[(first + k) % count];
    auto& runner = instance.runner;
    if (instance.gone || !runner.alive || runner.gated || runner.draining || !instance.registered)
      continue;
    // GitHub hands an Actions runner one job at a time, once it counts the runner idle: a
    // runner waiting to be unregistered competes with the queue for that moment.
    if (scenario_.api == runner_api::github && instance.github_counts_busy(now)) continue;
    while (runner.jobs.size() < scenario_.concurrency && !queue_.empty() &&
           !takes_no_more_jobs(runner)) {
      const auto job_index = queue_.front();
      queue_.erase(queue_.begin());
      auto& job = jobs_[job_index];
      job.started = now;
      runner.jobs.push_back(job_index);
      instance.lane.jobs.push_back({job.id, now, std::nullopt, false});
      job_taken((first + k) % count, job);
    }
  }
}

void fleet_world::finish_jobs(sim_seconds now) {
  for (std::size_t index = 0; index < instances_.size(); ++index) {
    auto& instance = instances_[index];
    auto& runner = instance.runner;
    if (!runner.alive) continue;
    std::erase_if(runner.jobs, [&](std::uint64_t job_index) {
      auto& job = jobs_[job_index];
      if (now < *job.started + job.duration) return false;
      job.ended = now;
      instance.github_busy_until = now + github_idle_lag;
      for (auto& bar : instance.lane.jobs)
        if (bar.id == job.id) bar.end = now;
      job_finished(index, job, now);
      return true;
    });
    // A draining gitlab-runner exits once its last job is done.
    if (runner.draining && runner.jobs.empty()) runner_exit(index, exit_status{}, now);
  }
}

void fleet_world::check_actions(sim_seconds now) {
  for (std::size_t index = 0; index < instances_.size(); ++index) {
    auto& instance = instances_[index];
    for (auto* action : {&instance.launch_action, &instance.terminate_action}) {
      if (!*action || (*action)->ended) continue;
      auto& a = **action;
      if (now < std::min(a.heartbeat_deadline, a.global_deadline)) continue;
      // A terminate hook that times out lets the group take the instance: a reclaim by
      // the cloud, judged as a spot reclaim is (faults may have kept the hook unfound).
      if (a.hook != "launch") {
        checker_->action_timed_out(now, instance, a);
        wind_down_at_reclaim(instance, now);
      }
      end_action(instance, a, "timed_out", now);
      if (a.hook == "launch") {
        begin_termination(index, now, false);  // the default result here: ABANDON
      } else {
        terminate_now(index, now, reclaim_reason(a));
      }
    }
    const auto& terminate = instance.terminate_action;
    // Azure deletes an approved VM a moment later, not in the instant of the approval.
    const double lag = terminate && !terminate->event_id.empty() ? azure_deletion_lag : 0;
    if (terminate && terminate->ended && !instance.gone && terminate->outcome != "timed_out" &&
        now >= *terminate->ended + lag)
      terminate_now(index, now, "the instance was terminated");
  }
}

void fleet_world::reconcile_capacity(sim_seconds now) {
  int in_service = 0;
  for (const auto& instance : instances_) in_service += in_group(instance) ? 1 : 0;
  for (; in_service < desired_; ++in_service) launch(now);
  // Scale-in by the group itself: unprotected instances first, the newest first.
  for (std::size_t i = instances_.size(); i-- > 0 && in_service > desired_;) {
    if (in_group(instances_[i]) && !instances_[i].protected_from_scale_in) {
      begin_termination(i, now, false);
      --in_service;
    }
  }
}

// The group's own autoscaler: a new desired capacity; reconcile_capacity launches or scales in.
void fleet_world::capacity_changes(sim_seconds now) {
  for (const auto& change : scenario_.capacity_changes) {
    const auto at = static_cast<double>(change.at.count());
    if (at > last_tick_ && at <= now) set_desired(change.desired, now);
  }
}

void fleet_world::instance_refresh(sim_seconds now) {
  const auto& at = scenario_.instance_refresh_at;
  if (!at || now < static_cast<double>(at->count())) return;
  if (!refresh_started_) {
    refresh_started_ = true;
    for (auto& instance : instances_) instance.refresh_victim = in_group(instance);
  }
  const int batch = std::max(1, static_cast<int>(desired_ * refresh_batch_share));
  int terminating = 0;
  for (const auto& instance : instances_)
    terminating += instance.refresh_victim && !instance.gone && !in_group(instance) ? 1 : 0;
  for (std::size_t i = 0; i < instances_.size() && terminating < batch; ++i) {
    if (instances_[i].refresh_victim && in_group(instances_[i])) {
      begin_termination(i, now, false);
      ++terminating;
    }
  }
}

void fleet_world::spot_interruptions(sim_seconds now) {
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    auto& instance = instances_[i];
    if (instance.spot_reclaim_at && now >= *instance.spot_reclaim_at && !instance.gone)
      terminate_now(i, now, "the spot instance was reclaimed");
  }
  const double chance = scenario_.spot_interruptions_per_hour / 3600.0 * (now - last_tick_);
  if (instances_.empty() || draw() >= chance) return;
  const auto victim = static_cast<std::size_t>(draw() * static_cast<double>(instances_.size()));
  auto& instance = instances_[victim];
  if (!instance.booted || !in_group(instance) || instance.spot_reclaim_at) return;
  if (scenario_.cloud == fleet_cloud::azure && !instance.azure_spot) return;  // never evicted
  instance.lane.marks.push_back({now, "spot_notice"});
  ++books_.spot_interruptions;
  switch (scenario_.cloud) {
    case fleet_cloud::aws:
      instance.spot_reclaim_at = now + spot_notice_seconds;
      return begin_termination(victim, now, false);
    case fleet_cloud::azure:
      return notify_azure_termination(victim, "Preempt", azure_preempt_notice_seconds, now);
    case fleet_cloud::gcp:
      instance.preempted = true;
      return shut_down_gcp(victim, gcp_preemption_seconds, now);
  }
}

void fleet_world::runner_crashes(sim_seconds now) {
  const double chance = scenario_.faults.runner_crashes_per_hour / 3600.0 * (now - last_tick_);
  if (chance <= 0 || !faulty(now)) return;
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    if (!instances_[i].runner.alive || instances_[i].runner.gated || draw() >= chance) continue;
    kill_jobs(i, "the runner crashed", now);
    ++books_.faults["runner_crash"];
    runner_exit(i, exit_status{true, SIGSEGV}, now);
  }
}

void fleet_world::runwarden_crashes(sim_seconds now) {
  const double chance = scenario_.faults.runwarden_crashes_per_hour / 3600.0 * (now - last_tick_);
  if (chance <= 0 || !faulty(now) || !on_runwarden_crash) return;
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    auto& instance = instances_[i];
    if (!instance.booted || instance.gone || instance.runwarden_back_at || draw() >= chance)
      continue;
    if (!on_runwarden_crash(i)) continue;
    ++books_.faults["runwarden_crash"];
    if (instance.runner.alive && instance.runner.gated) {  // its gate closed with runwarden
      instance.runner.alive = false;
      instance.runner.exited_at = now;
    }
    instance.runwarden_back_at =
        now + static_cast<double>(scenario_.faults.runwarden_restart_after.count());
    instance.lane.marks.push_back({now, "runwarden_crash"});
  }
}

bool fleet_world::runwarden_up(std::size_t instance) const {
  return !instances_[instance].runwarden_back_at;
}

bool fleet_world::runner_alive(std::size_t instance, std::int64_t pid) const {
  const auto& runner = instances_[instance].runner;
  return runner.alive && runner.pid == pid;
}

exit_status fleet_world::runner_end(std::size_t instance, std::int64_t pid) const {
  const auto& runner = instances_[instance].runner;
  if (runner.pid != pid || runner.alive || !runner.exited_at) return exit_status{.unknown = true};
  return runner.status;
}

void fleet_world::tick(sim_seconds now) {
  arrivals(now);
  one_job_exits(now);
  finish_jobs(now);
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    auto& instance = instances_[i];
    const bool due = now >= instance.launched + static_cast<double>(scenario_.boot_time.count());
    if (!instance.booted && !instance.gone && due) {
      instance.booted = true;
      if (!scenario_.launch_hook) set_state(instance, "InService", now);
      if (on_boot) on_boot(i);
    }
    if (instance.runwarden_back_at && (instance.gone || now >= *instance.runwarden_back_at)) {
      instance.runwarden_back_at.reset();
      if (!instance.gone && on_boot) on_boot(i);
    }
    checker_->instance_ticked(now, instance);
  }
  check_actions(now);
  if (scenario_.cloud == fleet_cloud::gcp) gcp_shutdowns(now);
  spot_interruptions(now);
  runner_crashes(now);
  runwarden_crashes(now);
  instance_refresh(now);
  capacity_changes(now);
  track_target(now);
  reconcile_capacity(now);
  assign_jobs(now);
  sample_queue(now);
  last_tick_ = now;
}

void fleet_world::finish(sim_seconds now) {
  for (auto& instance : instances_)
    for (auto* spans : {&instance.lane.lifecycle, &instance.lane.runner})
      if (!spans->empty() && !spans->back().to) spans->back().to = now;
  checker_->finished(now, instances_);
}

fleet_timeline fleet_world::timeline(const std::string& title) const {
  fleet_timeline result;
  result.duration = static_cast<double>(scenario_.duration.count());
  for (const auto& instance : instances_) result.lanes.push_back(instance.lane);
  result.desired_capacity = desired_samples_;
  result.queued_jobs = queue_samples_;
  result.group_min = scenario_.min_size;
  result.group_max = scenario_.max_size;
  result.title = title;
  return result;
}

}  // namespace runwarden

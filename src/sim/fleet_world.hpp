#pragma once
// The simulated world around a fleet of runwardens: the group (an Auto Scaling group with its
// launch and terminate hooks, an Azure scale set with its Scheduled Events, or a Google
// managed instance group with its metadata server), the instances' metadata, the simulated
// gitlab-runner processes with their jobs, the CI job queue, the GitLab registry, and the
// faults. It is plain C++ with no actor and no clock of its own: the simulated ports
// (sim_ports.hpp) ask it for answers and the fleet run (fleet_run.hpp) ticks it once a
// virtual second. Every random choice comes from its seed, so one seed is one world.
//
// It also keeps the books the report is made of: every job and how it ended, every
// lifecycle action and how it ended, registrations, the timeline. It judges nothing itself:
// it tells its checker (fleet_checker.hpp) the facts the invariants are judged by.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "messages/http_messages.hpp"
#include "src/drain/drain_vocabulary.hpp"
#include "src/drain/job_ledger.hpp"
#include "src/sim/fleet_invariants.hpp"
#include "src/sim/fleet_scenario.hpp"
#include "src/sim/fleet_timeline.hpp"

namespace runwarden {

// How each simulated runwarden retries the calls of its wind-down (fleet_run.cpp): the
// unregistration waits at most sim_retry_wait_max between two attempts, each given
// sim_unregister_timeout for an answer; the lifecycle hook's completion waits as long between
// two calls, each given up to sim_completion_call_budget across the Auto Scaling client's own
// retries. The world's checker needs them too: an attempt planned under faults may come this
// late after they ended.
constexpr std::chrono::seconds sim_retry_wait_max{30};
constexpr std::chrono::seconds sim_unregister_timeout{5};
constexpr std::chrono::seconds sim_completion_call_budget{30};

using sim_seconds = double;

// The wall-clock time a virtual moment stands for (spot notices carry one).
std::chrono::system_clock::time_point sim_wall_time(sim_seconds at);

struct sim_job {
  std::uint64_t id = 0;
  sim_seconds arrived = 0;
  sim_seconds duration = 0;
  std::optional<sim_seconds> started = std::nullopt;
  std::optional<sim_seconds> ended = std::nullopt;
  std::string killed_by = {};  // empty: finished (or still running / queued)
};

struct sim_runner {
  std::int64_t pid = 0;
  bool alive = false;
  bool draining = false;  // SIGQUIT: finish the jobs, take no new ones
  std::vector<std::uint64_t> jobs;
  std::optional<sim_seconds> exited_at;
  exit_status status{};  // once ended: as its parent, the keeper, reaped it
  // Spawned and waiting at its start gate for runwarden's release (child_process_host.hpp):
  // it runs nothing, takes no job, and ends if runwarden dies first.
  bool gated = true;
  // A one-job runner (scenario.one_job): the jobs it took, and when it exits on its own
  // once its job is done.
  std::uint32_t jobs_taken = 0;
  std::optional<sim_seconds> exit_due = std::nullopt;
};

// One lifecycle action the group waits for.
struct sim_lifecycle_action {
  std::string hook;  // "launch" or "terminate"; on Azure the event's type ("Terminate", "Preempt")
  sim_seconds started = 0;
  sim_seconds heartbeat_deadline = 0;
  sim_seconds global_deadline = 0;
  std::optional<sim_seconds> ended = std::nullopt;
  std::string outcome = {};               // "CONTINUE", "ABANDON", "timed_out"
  std::uint32_t completions_refused = 0;  // CompleteLifecycleAction after it ended
  // Azure: the Scheduled Event (hook "Terminate" or "Preempt") the scale set waits on until
  // NotBefore (both deadlines), or until it is approved (outcome "CONTINUE").
  std::string event_id = {};
};

struct sim_instance {
  std::string id;
  sim_seconds launched = 0;
  std::string lifecycle_state = "Pending";  // as DescribeAutoScalingInstances says
  std::string target_state;                 // IMDS target-lifecycle-state; empty: 404
  bool protected_from_scale_in = false;
  bool unhealthy = false;  // SetInstanceHealth Unhealthy: the group replaces it
  bool booted = false;     // runwarden and the runner run
  bool gone = false;       // terminated: its actors are stopped
  std::optional<sim_seconds> spot_reclaim_at;
  bool refresh_victim = false;
  bool azure_spot = false;  // Azure: a Spot VM of the scale set's Spot Priority Mix
  // Google Cloud: instance/preempted; when the guest's shutdown reaches runwarden as SIGTERM;
  // when the VM stops (its shutdown period, or a preemption's 30 s, is over).
  bool preempted = false;
  std::optional<sim_seconds> shutdown_signal_at;
  std::optional<sim_seconds> stop_at;
  std::optional<sim_lifecycle_action> launch_action;
  std::optional<sim_lifecycle_action> terminate_action;
  sim_runner runner;
  bool registered = false;  // with the simulated GitLab or GitHub
  // GitHub's view of the runner: busy until a little after its last job ended.
  sim_seconds github_busy_until = 0;
  // GitHub refuses to delete a runner it counts busy, and hands a job only to one it does not.
  bool github_counts_busy(sim_seconds now) const {
    return (runner.alive && !runner.jobs.empty()) || now < github_busy_until;
  }
  // Set while runwarden is down after a crash: when it comes back from its journal.
  std::optional<sim_seconds> runwarden_back_at;
  std::optional<sim_seconds> unregistered_at;
  timeline_lane lane;
};

// Counters for the report.
struct world_books {
  std::map<std::string, std::uint64_t> api_calls;    // by Auto Scaling action or service
  std::map<std::string, std::uint64_t> retries;      // calls after a lost or failed one
  std::map<std::string, std::uint64_t> faults;       // by kind injected
  std::map<std::string, std::uint64_t> jobs_killed;  // by reason
  // On Azure, events approved and events whose NotBefore came first.
  std::uint64_t lifecycle_completed = 0;
  std::uint64_t lifecycle_timed_out = 0;
  // Spot reclaims that came while faults kept the exited runner's wind-down (unregistration,
  // then the hook's completion) retrying.
  std::uint64_t wind_down_at_reclaim = 0;
  std::uint64_t launches = 0;
  std::uint64_t spot_interruptions = 0;
};

// What a port does with a request: answer after `delay`, or never (dropped: the client's
// own timeout ends it).
struct world_answer {
  std::optional<http_response> response;
  std::chrono::milliseconds delay{0};
  bool held = false;  // a waiting metadata read: answered later, through its responder
};

// Answers a request the world held (a Google metadata read waiting for a change).
using held_responder = std::function<void(http_response)>;

// A Google metadata read waiting with wait_for_change for its key's value to change.
struct held_metadata_read {
  std::size_t instance = 0;
  std::string key;        // "instance/preempted"
  std::string etag;       // of the value the client has
  sim_seconds until = 0;  // its timeout_sec: then answered with the value unchanged
  held_responder respond;
};

class fleet_checker;

class fleet_world {
 public:
  fleet_world(fleet_scenario scenario, std::uint64_t seed);
  ~fleet_world();
  fleet_world(const fleet_world&) = delete;
  fleet_world& operator=(const fleet_world&) = delete;

  // The harness's hooks into the actors, set before the first tick.
  std::function<void(std::size_t instance)> on_boot;  // start runwarden there
  std::function<void(std::size_t instance)> on_gone;  // stop its actors
  std::function<void(std::size_t instance, exit_status)> on_runner_exit;
  std::function<std::optional<sim_seconds>(std::size_t instance)> drain_deadline_of;
  // Whether the instance's runwarden has published that a drain began (with or without a
  // deadline).
  std::function<bool(std::size_t instance)> draining_of;
  // Kills the instance's runwarden as kill -9 would (its runner lives on); false when that
  // runwarden has already finished, which is not a crash worth having. on_boot brings it
  // back later, from its journal.
  std::function<bool(std::size_t instance)> on_runwarden_crash;
  // SIGTERM to the instance's runwarden: Google Cloud's guest shutdown (ACPI soft-off).
  std::function<void(std::size_t instance)> on_shutdown_signal;
  // The runner's job hook ran `runwarden ctl job start|end ID` (scenario.job_hooks).
  std::function<void(std::size_t instance, job_report_kind, std::string job_id)> on_job_report;

  // Once a virtual second: arrivals, job ends, boots, hook timeouts, reclaims, refresh.
  void tick(sim_seconds now);

  // The simulated process port.
  std::int64_t spawn_runner(std::size_t instance, sim_seconds now);
  void signal_runner(std::size_t instance, int signal_number, sim_seconds now);
  // Judges the signals that killed jobs at this instant against the drain deadline the
  // warden published, once every message of the instant has been delivered (the harness
  // calls it whenever the actors are idle). The warden publishes its deadline in the step
  // that sends the signal, and its status watcher and its process port may hear of them in
  // either order.
  void judge_killing_signals();
  // The start gate: the runner runs its command (go), or ends without running it.
  void release_runner(std::size_t instance, std::int64_t pid, bool go, sim_seconds now);
  // False from a runwarden crash until its restart: what it left in its ports' mailboxes
  // never happened.
  bool runwarden_up(std::size_t instance) const;
  // For adopting a runner after a restart: is this pid the instance's live runner?
  bool runner_alive(std::size_t instance, std::int64_t pid) const;
  // How the runner `pid` ended, as the instance's keeper tells a warden back from a crash:
  // its real status when it is the keeper's runner, unknown for any other pid.
  exit_status runner_end(std::size_t instance, std::int64_t pid) const;

  // The simulated HTTP port. A request the world holds (held) is answered through `later`.
  world_answer answer(std::size_t instance, const http_request& request, sim_seconds now,
                      held_responder later = {});

  // The instance's runwarden journaled a decision to retire it (fleet_run.cpp reads it off
  // the journal): the checker holds every later moment of the instance against it.
  void retirement_decided(std::size_t instance, sim_seconds now);

  // At the run's end: the liveness checks, the open spans closed.
  void finish(sim_seconds now);

  const fleet_scenario& scenario() const { return scenario_; }
  const std::vector<sim_instance>& instances() const { return instances_; }
  const std::vector<sim_job>& jobs() const { return jobs_; }
  const world_books& books() const { return books_; }
  fleet_timeline timeline(const std::string& title) const;
  int desired() const { return desired_; }
  // Judges the run from the facts the world and the fleet run tell it.
  fleet_checker& checker() { return *checker_; }
  const fleet_checker& checker() const { return *checker_; }
  // A moment of an instance's runwarden worth drawing (drain_started, gone).
  void mark(std::size_t instance, sim_seconds at, std::string kind);
  // The group's target-tracking policy, with group.scaler = "target-tracking".
  const target_tracking_state& target_tracking() const { return target_tracking_; }

 private:
  friend class autoscaling_service;
  friend class azure_metadata_service;
  friend class gcp_metadata_service;

  double draw();  // [0, 1)
  bool faulty(sim_seconds now) const;
  void launch(sim_seconds now);
  void begin_termination(std::size_t index, sim_seconds now, bool decrement);
  void notify_azure_termination(std::size_t index, const std::string& type, sim_seconds notice,
                                sim_seconds now);
  void shut_down_gcp(std::size_t index, sim_seconds period, sim_seconds now);
  void gcp_shutdowns(sim_seconds now);
  void azure_approved(std::size_t approver, std::size_t index, sim_seconds now);
  void capacity_changes(sim_seconds now);
  void track_target(sim_seconds now);  // fleet_world_target_tracking.cpp
  void end_action(sim_instance& instance, sim_lifecycle_action& action, std::string outcome,
                  sim_seconds now);
  void terminate_now(std::size_t index, sim_seconds now, const std::string& why);
  void runner_exit(std::size_t index, exit_status status, sim_seconds now);
  void kill_jobs(std::size_t index, const std::string& why, sim_seconds now);
  std::string reclaim_reason(const sim_lifecycle_action& action) const;
  void wind_down_at_reclaim(const sim_instance& instance, sim_seconds now);
  void arrivals(sim_seconds now);
  void assign_jobs(sim_seconds now);
  void finish_jobs(sim_seconds now);
  // One-job runners (fleet_world_one_job.cpp).
  bool takes_no_more_jobs(const sim_runner& runner) const;
  void job_taken(std::size_t index, const sim_job& job);
  void job_finished(std::size_t index, const sim_job& job, sim_seconds now);
  void one_job_exits(sim_seconds now);
  void check_actions(sim_seconds now);
  void reconcile_capacity(sim_seconds now);
  void instance_refresh(sim_seconds now);
  void spot_interruptions(sim_seconds now);
  void runner_crashes(sim_seconds now);
  void runwarden_crashes(sim_seconds now);
  world_answer serve(std::size_t instance, const http_request& request, sim_seconds now,
                     const held_responder& later);
  world_answer serve_healthy(std::size_t instance, const http_request& request, sim_seconds now,
                             const held_responder& later, std::chrono::milliseconds delay);
  http_response respond(std::size_t instance, std::string_view service, const http_request& request,
                        sim_seconds now);
  http_response github_answer(sim_instance& instance, const http_request& request, sim_seconds now);
  void set_state(sim_instance& instance, const std::string& state, sim_seconds now);
  void set_runner_span(sim_instance& instance, const std::string& state, sim_seconds now);
  void sample_queue(sim_seconds now);
  void set_desired(int desired, sim_seconds now);
  std::optional<std::size_t> index_of(const std::string& instance_id) const;

  fleet_scenario scenario_;
  std::unique_ptr<fleet_checker> checker_;  // judges against scenario_
  std::uint64_t random_state_;
  std::vector<sim_instance> instances_;
  std::vector<sim_job> jobs_;
  std::vector<std::uint64_t> queue_;  // job indexes waiting, oldest first
  int desired_;
  std::int64_t next_pid_ = 1000;
  sim_seconds last_tick_ = 0;
  bool refresh_started_ = false;
  world_books books_;
  std::vector<timeline_sample> desired_samples_;
  std::vector<timeline_sample> queue_samples_;
  // Per instance and call: the last answer asked for a retry, so the next call is one.
  std::map<std::pair<std::size_t, std::string>, bool> retry_due_;
  // Azure: the scale set's Scheduled Events document's incarnation, and events issued.
  std::int64_t azure_incarnation_ = 1;
  std::uint64_t azure_events_issued_ = 0;
  // Google Cloud: metadata reads waiting for a change.
  std::vector<held_metadata_read> held_reads_;
  // Target tracking: the policy's alarms, and the job slots summed over the current period.
  target_tracking_state target_tracking_;
  std::uint64_t period_slots_busy_ = 0;
  std::uint64_t period_slots_total_ = 0;
  // Signals that killed jobs, not yet judged against the drain deadline.
  struct killing_signal {
    std::size_t instance;
    int signal_number;
    std::size_t jobs;
    sim_seconds at;
  };
  std::vector<killing_signal> unjudged_signals_;
};

}  // namespace runwarden

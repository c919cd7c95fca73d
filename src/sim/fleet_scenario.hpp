#pragma once
// A fleet simulation scenario, as `runwarden sim SCENARIO.toml` reads it: the group (an
// Auto Scaling group with its hooks, an Azure scale set with its terminate notification, or
// a Google managed instance group), the runners, the CI job load, the events (instance
// refresh, capacity changes, spot interruptions) and the faults. Every key is documented in
// config/scenarios/README.md; unknown keys and bad values are errors naming the file, line
// and key.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/retirement/retirement_policy.hpp"
#include "src/sim/target_tracking_model.hpp"

namespace runwarden {

struct job_burst {
  std::chrono::seconds at{0};
  std::uint32_t jobs = 0;
};

// The group's own autoscaler setting a new desired capacity.
struct capacity_change {
  std::chrono::seconds at{0};
  int desired = 0;
};

struct fleet_faults {
  double api_error_rate = 0;  // share of API answers that are 5xx
  double throttle_rate = 0;   // share of Auto Scaling answers that are Throttling
  double busy_rate = 0;       // share of unregistration answers that are 429/409-style busy
  double drop_rate = 0;       // share of requests never answered (the client times out)
  std::chrono::milliseconds latency_max{0};  // each answer delayed up to this
  double runner_crashes_per_hour = 0;        // per instance
  // runwarden itself killed (kill -9) per instance and hour; it comes back from its journal
  // after runwarden_restart_after, as systemd's Restart= would bring it.
  double runwarden_crashes_per_hour = 0;
  std::chrono::seconds runwarden_restart_after{5};
  double imds_error_rate = 0;  // share of metadata answers that are 5xx
  // Liveness mode: faults stop here and every drain must then finish; unset: safety mode,
  // faults throughout.
  std::optional<std::chrono::seconds> faults_until;
};

// The service the runners are registered with, and runwarden unregisters them from.
enum class runner_api : std::uint8_t { gitlab, github };

// The cloud the group lives in, and so the warnings its runwardens hear: AWS (Auto Scaling
// lifecycle hooks, spot notices on IMDSv2), Azure (a scale set's Scheduled Events: Terminate
// and Preempt, approved once the runner is gone) or Google Cloud (a managed instance group:
// instance/preempted, and the guest's shutdown as SIGTERM).
enum class fleet_cloud : std::uint8_t { aws, azure, gcp };

// Who sets the group's desired capacity besides the scenario's events: nobody (none), or the
// group's own target-tracking policy on the job slots runwarden publishes
// (target_tracking_model.hpp), with runwarden keeping only scale-in protection while busy
// ([scaling] scaler = "group"). runwarden's own scaler is runner.scaling.
enum class group_scaler : std::uint8_t { none, target_tracking };

struct fleet_scenario {
  std::string name;
  std::chrono::seconds duration{std::chrono::hours{1}};
  // The group.
  int min_size = 1;
  int max_size = 20;
  int desired = 20;
  std::chrono::seconds boot_time{60};  // from launch to the runner starting
  std::chrono::seconds heartbeat_timeout{300};
  std::chrono::seconds global_timeout{7200};
  bool launch_hook = true;
  fleet_cloud cloud = fleet_cloud::aws;
  // Azure: the scale set's terminate notification (notBeforeTimeout, 5 to 15 minutes), and
  // the share of its VMs that are Spot (Spot Priority Mix): Azure evicts only those, with a
  // Preempt event, and cannot give them terminate notifications.
  std::chrono::seconds terminate_notification{300};
  double spot_share = 0;
  // Google Cloud: how long a VM the group deletes has to shut down (90 s on demand).
  std::chrono::seconds shutdown_period{90};
  group_scaler scaler = group_scaler::none;
  target_tracking_policy target_tracking;  // with scaler = target_tracking
  // The runners.
  std::uint32_t concurrency = 4;
  std::chrono::seconds poll_interval{5};  // runwarden's metadata polling
  bool scaling = false;                   // runwarden's own [scaling]
  runner_api api = runner_api::gitlab;    // github: no metrics page, GitHub's runner API
  // A one-job runner (GitHub's --ephemeral, gitlab-runner run-single --max-builds 1): it
  // takes one job, finishes it and exits by itself a second later (GitHub then deletes an
  // ephemeral runner's registration itself).
  bool one_job = false;
  // The runner reports each job's start and end with `runwarden ctl job start|end ID`, as
  // GitHub's ACTIONS_RUNNER_HOOK_JOB_STARTED and _COMPLETED scripts would.
  bool job_hooks = false;
  // runwarden's own [runner] after_exit, idle_retire_after, on_give_up and
  // recycle_after_jobs (AWS only: the instance end speaks the Auto Scaling API).
  after_exit_action after_exit = after_exit_action::restart;
  std::optional<std::chrono::seconds> idle_retire_after;
  give_up_choice on_give_up = give_up_choice::exit;
  std::optional<std::uint32_t> recycle_after_jobs;
  // The load: jobs per minute, and bursts.
  double jobs_per_minute = 30;
  std::vector<job_burst> bursts;
  std::chrono::seconds job_duration_min{60};
  std::chrono::seconds job_duration_max{900};
  // Events.
  std::optional<std::chrono::seconds> instance_refresh_at;  // replaces every instance
  std::vector<capacity_change> capacity_changes;            // in the order given
  double spot_interruptions_per_hour = 0;                   // fleet-wide
  fleet_faults faults;
};

struct scenario_read {
  std::optional<fleet_scenario> scenario;  // set exactly when errors is empty
  std::vector<std::string> errors;         // "FILE:LINE: key: problem"
};

scenario_read parse_fleet_scenario(const std::string& text, const std::string& file_name);
scenario_read read_fleet_scenario(const std::string& path);

}  // namespace runwarden

// Scenario files: every key read, and bad ones refused with file, line and key.
#include <catch2/catch.hpp>

#include "src/sim/fleet_scenario.hpp"

using namespace runwarden;
using namespace std::chrono_literals;

TEST_CASE("a scenario's keys are read", "[sim][scenario]") {
  const auto read = parse_fleet_scenario(R"(name = "x"
duration = "2h"
[group]
min = 1
max = 5
desired = 3
boot_time = "30s"
[runner]
scaling = true
api = "github"
concurrency = 1
[load]
jobs_per_minute = 2.5
bursts = [{ at = "10m", jobs = 40 }]
[events]
instance_refresh_at = "20m"
[faults]
api_error_rate = 0.1
runwarden_crashes_per_hour = 0.5
runwarden_restart_after = "30s"
until = "30m"
)",
                                         "s.toml");
  INFO((read.errors.empty() ? std::string{} : read.errors.front()));
  REQUIRE(read.scenario);
  const auto& s = *read.scenario;
  CHECK(s.duration == 2h);
  CHECK(s.desired == 3);
  CHECK(s.boot_time == 30s);
  CHECK(s.scaling);
  CHECK(s.jobs_per_minute == 2.5);
  REQUIRE(s.bursts.size() == 1);
  CHECK(s.bursts[0].at == 10min);
  CHECK(s.bursts[0].jobs == 40);
  CHECK(s.instance_refresh_at == 20min);
  CHECK(s.faults.api_error_rate == 0.1);
  CHECK(s.faults.faults_until == 30min);
  CHECK(s.api == runner_api::github);
  CHECK(s.faults.runwarden_crashes_per_hour == 0.5);
  CHECK(s.faults.runwarden_restart_after == 30s);
}

TEST_CASE("a cloud's keys are read", "[sim][scenario]") {
  const auto azure = parse_fleet_scenario(R"([group]
cloud = "azure"
terminate_notification = "15m"
spot_share = 0.25
[events]
capacity_changes = [{ at = "10m", desired = 3 }]
spot_interruptions_per_hour = 6
)",
                                          "a.toml");
  INFO((azure.errors.empty() ? std::string{} : azure.errors.front()));
  REQUIRE(azure.scenario);
  CHECK(azure.scenario->cloud == fleet_cloud::azure);
  CHECK(azure.scenario->terminate_notification == 15min);
  CHECK(azure.scenario->spot_share == 0.25);
  CHECK_FALSE(azure.scenario->launch_hook);  // a scale set has no lifecycle hooks
  REQUIRE(azure.scenario->capacity_changes.size() == 1);
  CHECK(azure.scenario->capacity_changes[0].at == 10min);
  CHECK(azure.scenario->capacity_changes[0].desired == 3);
  const auto gcp =
      parse_fleet_scenario("[group]\ncloud = \"gcp\"\nshutdown_period = \"2m\"\n", "g.toml");
  REQUIRE(gcp.scenario);
  CHECK(gcp.scenario->cloud == fleet_cloud::gcp);
  CHECK(gcp.scenario->shutdown_period == 2min);
  const auto aws = parse_fleet_scenario("", "e.toml");
  REQUIRE(aws.scenario);
  CHECK(aws.scenario->cloud == fleet_cloud::aws);
  CHECK(aws.scenario->launch_hook);
}

TEST_CASE("the group's target tracking is read", "[sim][scenario]") {
  const auto read = parse_fleet_scenario(R"([group]
scaler = "target-tracking"
[target_tracking]
target_value = 80
instance_warmup = "2m"
metric_period = "10s"
disable_scale_in = true
)",
                                         "s.toml");
  INFO((read.errors.empty() ? std::string{} : read.errors.front()));
  REQUIRE(read.scenario);
  const auto& s = *read.scenario;
  CHECK(s.scaler == group_scaler::target_tracking);
  CHECK(s.target_tracking.target_value == 80);
  CHECK(s.target_tracking.instance_warmup == 2min);
  CHECK(s.target_tracking.metric_period == 10s);
  CHECK(s.target_tracking.disable_scale_in);
  // Left out: the policy of config/aws/target-tracking-policy.json, AWS's alarms.
  const auto plain = parse_fleet_scenario("[group]\nscaler = \"target-tracking\"\n", "s.toml");
  REQUIRE(plain.scenario);
  CHECK(plain.scenario->target_tracking.target_value == 70);
  CHECK(plain.scenario->target_tracking.instance_warmup == 300s);
  CHECK(plain.scenario->target_tracking.metric_period == 60s);
  CHECK(plain.scenario->target_tracking.scale_out_datapoints == 3);
  CHECK(plain.scenario->target_tracking.scale_in_datapoints == 15);
}

TEST_CASE("a one-job runner's keys are read", "[sim][scenario]") {
  const auto read = parse_fleet_scenario(R"([runner]
api = "github"
concurrency = 1
one_job = true
job_hooks = true
after_exit = "retire"
idle_retire_after = "5m"
on_give_up = "unhealthy"
recycle_after_jobs = 3
)",
                                         "s.toml");
  INFO((read.errors.empty() ? std::string{} : read.errors.front()));
  REQUIRE(read.scenario);
  const auto& s = *read.scenario;
  CHECK(s.one_job);
  CHECK(s.job_hooks);
  CHECK(s.after_exit == after_exit_action::retire);
  CHECK(s.idle_retire_after == 5min);
  CHECK(s.on_give_up == give_up_choice::unhealthy);
  CHECK(s.recycle_after_jobs == 3u);
  const auto plain = parse_fleet_scenario("", "s.toml");
  REQUIRE(plain.scenario);
  CHECK_FALSE(plain.scenario->one_job);
  CHECK_FALSE(plain.scenario->job_hooks);
  CHECK(plain.scenario->after_exit == after_exit_action::restart);
  CHECK_FALSE(plain.scenario->idle_retire_after);
  CHECK(plain.scenario->on_give_up == give_up_choice::exit);
  CHECK_FALSE(plain.scenario->recycle_after_jobs);
}

TEST_CASE("bad scenarios are refused naming file, line and key", "[sim][scenario]") {
  const std::vector<std::pair<std::string, std::string>> rows{
      {"[group]\nmaximum = 3", "s.toml:2: group.maximum: unknown key"},
      {"[group]\nmax = \"3\"", "s.toml:2: group.max: expected a number"},
      {"duration = \"10\"", "s.toml:1: duration: missing unit in \"10\" (use ms, s, m or h)"},
      {"duration = \"0s\"", "s.toml:1: duration: must be greater than zero"},
      {"[faults]\ndrop_rate = 0.9", "s.toml:2: faults.drop_rate: 0.9 is not between 0 and 0.5"},
      {"[group]\nmin = 5\nmax = 3\ndesired = 4", "s.toml:2: group.min: is above group.max"},
      {"[load]\nbursts = [{ at = \"1m\" }]",
       "s.toml:2: load.bursts[0]: expected { at = \"10m\", jobs = 50 }"},
      {"[runner]\napi = \"bitbucket\"", "s.toml:2: runner.api: expected \"gitlab\" or \"github\""},
      {"[runner]\napi = \"github\"\nconcurrency = 2",
       "s.toml:3: runner.concurrency: must be 1 with runner.api = \"github\": an Actions runner "
       "runs one job at a time"},
      {"[faults]\nrunwarden_restart_after = \"0s\"",
       "s.toml:2: faults.runwarden_restart_after: must be greater than zero"},
      {"name = ", "s.toml:1: Error while parsing key-value pair: encountered end-of-file"},
      {"[group]\ncloud = \"oracle\"",
       "s.toml:2: group.cloud: expected \"aws\", \"azure\" or \"gcp\""},
      {"[group]\ncloud = \"gcp\"\nterminate_notification = \"10m\"",
       "s.toml:3: group.terminate_notification: only with group.cloud = \"azure\""},
      {"[group]\nshutdown_period = \"90s\"",
       "s.toml:2: group.shutdown_period: only with group.cloud = \"gcp\""},
      {"[group]\ncloud = \"azure\"\nlaunch_hook = true",
       "s.toml:3: group.launch_hook: only with group.cloud = \"aws\": Auto Scaling lifecycle "
       "hooks and the scaler's Auto Scaling API"},
      {"[group]\ncloud = \"azure\"\nterminate_notification = \"20m\"",
       "s.toml:3: group.terminate_notification: must be between 5m and 15m, as a scale set's "
       "notBeforeTimeout is"},
      {"[group]\ncloud = \"azure\"\n[events]\nspot_interruptions_per_hour = 4",
       "s.toml:4: events.spot_interruptions_per_hour: needs group.spot_share above 0: Azure "
       "evicts only Spot VMs"},
      {"[group]\ncloud = \"gcp\"\n[runner]\npoll_interval = \"5s\"",
       "s.toml:4: runner.poll_interval: not with group.cloud = \"gcp\": Google's metadata reads "
       "wait for a change"},
      {"[group]\ncloud = \"gcp\"\nshutdown_period = \"10s\"",
       "s.toml:3: group.shutdown_period: must be between 30s and 1h (90s on demand; graceful "
       "shutdown allows up to 1h)"},
      {"[events]\ncapacity_changes = [{ at = \"5m\", desired = 40 }]",
       "s.toml:2: events.capacity_changes[0].desired: must be within [group.min, group.max]"},
      {"[group]\nscaler = \"karpenter\"",
       "s.toml:2: group.scaler: expected \"none\" or \"target-tracking\""},
      {"[group]\nscaler = \"target-tracking\"\n[target_tracking]\nmetric_period = \"15s\"",
       "s.toml:4: target_tracking.metric_period: must be 10s, 20s, 30s or 60s, as target "
       "tracking allows"},
      {"[target_tracking]\ntarget_value = 50",
       "s.toml:1: target_tracking: only with group.scaler = \"target-tracking\""},
      {"[group]\nscaler = \"target-tracking\"\n[runner]\nscaling = true",
       "s.toml:4: runner.scaling: not with group.scaler = \"target-tracking\": runwarden keeps "
       "only scale-in protection while busy, the group's policy sets the capacity"},
      {"[group]\ncloud = \"gcp\"\nscaler = \"target-tracking\"",
       "s.toml:3: group.scaler: \"target-tracking\" only with group.cloud = \"aws\""},
      {"[runner]\nafter_exit = \"reboot\"",
       "s.toml:2: runner.after_exit: expected \"restart\" or \"retire\""},
      {"[runner]\none_job = true\nconcurrency = 2",
       "s.toml:3: runner.concurrency: must be 1 with runner.one_job: a one-job runner takes one "
       "job"},
      {"[group]\ncloud = \"gcp\"\n[runner]\nafter_exit = \"retire\"",
       "s.toml:4: runner.after_exit: only with group.cloud = \"aws\": the instance end calls "
       "Auto Scaling"},
      {"[runner]\non_give_up = \"reboot\"",
       "s.toml:2: runner.on_give_up: expected \"exit\", \"unhealthy\" or \"retire\""},
      {"[runner]\nrecycle_after_jobs = 0",
       "s.toml:2: runner.recycle_after_jobs: 0 is not between 1 and 1000000"},
      {"[runner]\nidle_retire_after = \"5m\"",
       "s.toml:2: runner.idle_retire_after: only with runner.after_exit = \"retire\""},
  };
  for (const auto& [text, error] : rows) {
    CAPTURE(text);
    const auto read = parse_fleet_scenario(text, "s.toml");
    CHECK_FALSE(read.scenario);
    REQUIRE_FALSE(read.errors.empty());
    CHECK(read.errors.front() == error);
  }
}

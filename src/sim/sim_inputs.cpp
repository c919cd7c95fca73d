// See sim_inputs.hpp.
#include "src/sim/sim_inputs.hpp"

#include <csignal>
#include <string>

#include "src/sim/azure_metadata_service.hpp"
#include "src/sim/gcp_metadata_service.hpp"

namespace runwarden {

namespace {

// What an operator would write in runwarden.toml for a simulated instance, unregistered from
// the scenario's CI server, on the scenario's cloud (AWS with lifecycle hooks, Azure, Google
// Cloud): a gitlab-runner (it drains on SIGQUIT; its metrics are read), or an Actions runner,
// which has no drain signal and no metrics page (kind generic: SIGTERM ends it), so that
// runwarden unregisters it first. The unregistration's retries wait at most
// sim_retry_wait_max, each attempt given sim_unregister_timeout (fleet_world.hpp).
settings sim_settings(const fleet_scenario& scenario, bool broken) {
  settings config;
  const bool gitlab = scenario.api == runner_api::gitlab;
  config.runner.kind = gitlab ? runner_kind_name::gitlab : runner_kind_name::generic;
  if (gitlab) config.runner.metrics_url = "http://runner.sim/metrics";
  if (broken) {
    config.runner.kind = runner_kind_name::generic;
    config.runner.graceful_signal = SIGTERM;
    config.runner.forceful_signal = SIGTERM;
  }
  config.drain.kill_timeout = std::chrono::seconds{10};
  config.unregister.kind = gitlab ? unregister_kind::gitlab : unregister_kind::github;
  config.unregister.retry_initial = std::chrono::seconds{1};
  config.unregister.retry_max = sim_retry_wait_max;
  config.unregister.attempts_max = 0;
  config.unregister.timeout = sim_unregister_timeout;
  // The machine's life: [runner] after_exit, idle_retire_after, on_give_up and
  // recycle_after_jobs as the scenario says.
  config.retirement.after_exit = scenario.after_exit;
  config.retirement.on_give_up = scenario.on_give_up;
  config.retirement.recycle.after_jobs = scenario.recycle_after_jobs;
  if (scenario.idle_retire_after)
    config.retirement.idle_retire_after = std::chrono::milliseconds{*scenario.idle_retire_after};
  config.scaling.enabled = scenario.scaling;
  config.scaling.capacity = scenario.concurrency;
  // Under the group's target tracking, runwarden keeps only scale-in protection while busy
  // ([scaling] scaler = "group"); the world stands in for its publisher and CloudWatch.
  if (scenario.scaler == group_scaler::target_tracking) {
    config.scaling.enabled = true;
    config.scaling.policy.decide_capacity = false;
  }
  switch (scenario.cloud) {
    case fleet_cloud::aws:
      config.cloud.provider = cloud_provider::aws;
      config.aws.imds_endpoint = "http://imds.sim";
      config.aws.poll_interval = scenario.poll_interval;
      break;
    case fleet_cloud::azure:
      config.cloud.provider = cloud_provider::azure;
      config.azure.metadata_endpoint = std::string{sim_azure_endpoint};
      config.azure.poll_interval = scenario.poll_interval;
      break;
    case fleet_cloud::gcp:
      config.cloud.provider = cloud_provider::gcp;
      config.gcp.metadata_endpoint = std::string{sim_gcp_endpoint};
      // The guest's SIGTERM carries no deadline: a drain timeout leaves a third of the
      // shutdown period for the forceful signal and the unregistration.
      config.drain.timeout = std::chrono::milliseconds{scenario.shutdown_period} * 2 / 3;
      break;
  }
  return config;
}

// Where the instance's runner is registered: GitLab, or GitHub's repository sim/fleet; the
// token as a token file would have given it.
unregister_target registration_of(const fleet_scenario& scenario, const sim_instance& instance) {
  if (scenario.api == runner_api::gitlab)
    return gitlab_runner{"sim", "http://gitlab.sim", "glrt-sim", "s_sim"};
  github_runner runner;
  runner.api_url = "http://github.sim";
  runner.owner = "sim";
  runner.repo = "fleet";
  runner.runner_name = instance.id;
  runner.token = "ghs_sim";
  return runner;
}

}  // namespace

instance_inputs sim_inputs(const fleet_scenario& scenario, const sim_instance& instance,
                           bool broken) {
  auto config = sim_settings(scenario, broken);
  const auto& unregister = config.unregister;
  unregister_plan unregistration{
      .targets = {registration_of(scenario, instance)},
      .limits = {unregister.retry_initial, unregister.retry_max, unregister.attempts_max},
      .timeout = unregister.timeout};
  // The Auto Scaling client's environment as on an EC2 instance given fixed credentials.
  environment_map environment{{"AWS_ACCESS_KEY_ID", "AKIDSIMULATION"},
                              {"AWS_SECRET_ACCESS_KEY", "sim"},
                              {"AWS_REGION", "sim-1"},
                              {"AWS_ENDPOINT_URL_AUTO_SCALING", "http://autoscaling.sim"}};
  return instance_inputs{.config = std::move(config),
                         .environment = std::move(environment),
                         .unregistration = std::move(unregistration)};
}

}  // namespace runwarden

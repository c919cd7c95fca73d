// See autoscaling_plan.hpp.
#include "src/assembly/autoscaling_plan.hpp"

#include "src/assembly/publish_plan.hpp"
#include "src/assembly/scaling_plan.hpp"
#include "src/aws/credentials_chain.hpp"
#include "src/aws/imds/imds_endpoint.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

std::optional<std::string> configured_region(const environment_map& environment) {
  for (const char* name : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
    const auto found = environment.find(name);
    if (found != environment.end() && !found->second.empty()) return found->second;
  }
  return std::nullopt;
}

}  // namespace

autoscaling_plan_result plan_autoscaling(const instance_inputs& inputs,
                                         std::optional<scaling_policy> scaling,
                                         bool ready_needs_metrics,
                                         const std::function<std::uint64_t()>& seeds,
                                         std::shared_ptr<metrics_registry> metrics,
                                         std::optional<std::uint32_t> publish_capacity) {
  const auto& config = inputs.config;
  const auto& environment = inputs.environment;
  const bool aws = config.cloud.provider == cloud_provider::aws;
  if (scaling && !aws)
    return {std::nullopt,
            "scaling.enabled needs cloud.provider = \"aws\": the scaler finds its "
            "instance and group through the instance metadata service"};
  // Outside AWS nothing is opened for CloudWatch (the config check refuses it anyway).
  if (!aws) publish_capacity.reset();
  // A retired instance is ended through the group (TerminateInstanceInAutoScalingGroup).
  const bool retires = may_retire(config.retirement);
  if (!aws || (!config.aws.complete_lifecycle_hooks && !scaling && !publish_capacity && !retires))
    return {};
  auto endpoint = resolve_imds_endpoint(config.aws.imds_endpoint, environment);
  if (!endpoint.error.empty()) return {std::nullopt, std::move(endpoint.error)};
  auto chain = start_credentials_chain(environment, inputs.aws_shared_credentials);
  if (!chain.error.empty()) return {std::nullopt, "AWS credentials: " + chain.error};
  warden_logger()->info("auto scaling: credentials from {}", chain.source);
  autoscaling_plan plan{.client = {.http_port = {},
                                   .imds_endpoint = std::move(endpoint.endpoint),
                                   .fixed_credentials = std::move(chain.fixed),
                                   .region = configured_region(environment),
                                   .environment = environment,
                                   .random_seed = seeds()}};
  if (config.aws.complete_lifecycle_hooks)
    plan.lifecycle_hooks = lifecycle_hooks_wiring{
        .autoscaling_client = {},
        .warden = {},
        .hook_name = config.aws.lifecycle_hook,
        .seen_late_by = config.aws.poll_interval,
        .random_seed = seeds(),
        .launch_hook_name = config.aws.launch_hook,
        .ready_needs_metrics = ready_needs_metrics,
        .launch_ready_timeout = config.aws.launch_ready_timeout,
        .heartbeat_observer =
            [metrics](heartbeat_outcome outcome) { metrics->count_lifecycle_heartbeat(outcome); },
        .completion_observer =
            [metrics](completion_result result) { metrics->count_lifecycle_completion(result); }};
  if (scaling) plan.scaler = wire_scaler(*scaling, seeds(), metrics);
  if (publish_capacity) {
    plan.cloudwatch_client = cloudwatch_client_wiring(plan.client, config.scaling, seeds());
    plan.publisher = wire_publisher(config.scaling, *publish_capacity, std::move(metrics));
  }
  return {std::move(plan), {}};
}

}  // namespace runwarden

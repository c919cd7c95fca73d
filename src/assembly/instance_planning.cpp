// See instance_planning.hpp.
#include "src/assembly/instance_planning.hpp"

#include <utility>

#include "actors/aws_watcher/aws_metadata_watcher.hpp"
#include "actors/azure_watcher/azure_metadata_watcher.hpp"
#include "actors/gcp_watcher/gcp_metadata_watcher.hpp"
#include "actors/notifier/webhook_notifier.hpp"
#include "src/assembly/autoscaling_plan.hpp"
#include "src/assembly/drain_config_from_settings.hpp"
#include "src/assembly/pod_annotator_plan.hpp"
#include "src/assembly/runner_plan.hpp"
#include "src/assembly/scaling_plan.hpp"
#include "src/logging/logging.hpp"
#include "src/runner/runner_kind.hpp"
#include "src/util/exit_codes.hpp"
#include "src/util/url_userinfo.hpp"

namespace runwarden {

namespace {

instance_planning refused(std::string error) {
  return {std::nullopt, {}, std::move(error), exit_config};
}

// The runner as webhook templates name it: the name its CI server knows, when configured.
runner_identity runner_identity_of(const settings& config) {
  const auto kind_name = config.runner.kind.value_or(
      guess_runner_kind(config.runner.command.empty() ? "" : config.runner.command.front()));
  const auto& unregister = config.unregister;
  std::string name = unregister.kind == unregister_kind::github ? unregister.github.runner_name
                                                                : unregister.gitlab.name;
  return {std::move(name), std::string{kind_of(kind_name).text}};
}

void plan_runner_side(instance_plan& plan, const runner_plan& runner,
                      const std::function<std::uint64_t()>& seeds,
                      const std::shared_ptr<metrics_registry>& metrics) {
  if (runner.reads_metrics()) {
    plan.metrics_poller =
        metrics_poller_wiring{.url = runner.metrics_url(),
                              .interval = runner.metrics_interval(),
                              .http_port = {},
                              .listener = {},
                              .interval_draining = runner.metrics_interval_draining()};
    warden_logger()->info(
        "scraping the runner's metrics at {} every {}s, every {}s while it "
        "drains",
        redact_url_userinfo(runner.metrics_url()), runner.metrics_interval().count() / 1000.0,
        runner.metrics_interval_draining().count() / 1000.0);
  }
  if (const auto* unregistration = runner.unregistration())
    plan.unregistration = unregistrar_wiring{
        .http_port = {},
        .listener = {},
        .targets = unregistration->targets,
        .limits = unregistration->limits,
        .timeout = unregistration->timeout,
        .random_seed = seeds(),
        .attempt_observer =
            [metrics](outcome_kind outcome) { metrics->count_unregistration_attempt(outcome); },
        // gitlab-runner rotates tokens in its config.toml: the unregistrar reads them again at
        // every attempt (its I/O at run time; planning reads nothing).
        .read_token = read_gitlab_token};
}

// The watcher of config.cloud.provider into `plan`, each answer of its metadata service
// marked for /metrics; the error of a refused endpoint, or empty.
std::string plan_cloud_watcher(instance_plan& plan, const settings& config,
                               const environment_map& environment, std::uint64_t random_seed,
                               const std::shared_ptr<metrics_registry>& metrics) {
  const auto answered = [metrics] {
    metrics->mark_metadata_answered(std::chrono::system_clock::now());
  };
  const auto adopt = [&](auto planned, auto& slot) {
    if (!planned.wiring) return std::move(planned.error);
    planned.wiring->answered = answered;
    slot = std::move(planned.wiring);
    return std::string{};
  };
  switch (config.cloud.provider) {
    case cloud_provider::none:
      return {};
    case cloud_provider::aws:
      return adopt(plan_aws_watcher(config.aws, environment, random_seed), plan.aws_watcher);
    case cloud_provider::azure:
      return adopt(plan_azure_watcher(config.azure, random_seed), plan.azure_watcher);
    case cloud_provider::gcp:
      return adopt(plan_gcp_watcher(config.gcp, environment, random_seed), plan.gcp_watcher);
    case cloud_provider::detect:
      break;
  }
  return "cloud.provider \"auto\" was not resolved before the instance was planned";
}

}  // namespace

instance_planning plan_instance(const instance_inputs& inputs,
                                const std::function<std::uint64_t()>& seeds,
                                std::shared_ptr<metrics_registry> metrics) {
  const auto& config = inputs.config;
  auto runner_side = runner_plan::plan(inputs);
  if (!runner_side.planned) return refused(std::move(runner_side.error));
  // [scaling]: the capacity is resolved now, so a scaler that could never decide stops
  // runwarden before the runner starts.
  auto scaling = plan_scaling(config, inputs.gitlab_runner ? &*inputs.gitlab_runner : nullptr);
  if (!scaling.error.empty()) return refused(std::move(scaling.error));
  std::optional<std::uint32_t> publish_capacity;
  if (scaling.policy && config.scaling.publish != metrics_publish::none)
    publish_capacity = scaling.policy->capacity;
  if (!config.scaling.enabled) scaling.policy.reset();  // resolved for the publisher only
  auto autoscaling =
      plan_autoscaling(inputs, std::move(scaling.policy), runner_side.planned->reads_metrics(),
                       seeds, metrics, publish_capacity);
  if (!autoscaling.error.empty()) return refused(std::move(autoscaling.error));
  auto webhook = config.webhook;
  webhook.secret_file.clear();  // read by the gathering: inputs.webhook_secret
  auto notifier = plan_notifier(
      webhook, seeds(),
      [metrics](notification_kind kind, bool delivered, unsigned) {
        metrics->count_webhook_delivery(kind, delivered);
      },
      runner_identity_of(config));
  if (!notifier.wiring) return refused("webhook: " + notifier.error);
  notifier.wiring->secret = inputs.webhook_secret;
  instance_plan plan{
      .drain = make_drain_config(config, seeds(), runner_side.planned->gitlab_shutdown_timeout()),
      .notifier = std::move(*notifier.wiring),
      .dry_run = config.run.dry_run};
  // Checked before the runner starts, so that a bad endpoint stops nothing midway.
  if (auto error = plan_cloud_watcher(plan, config, inputs.environment, seeds(), metrics);
      !error.empty())
    return refused(std::move(error));
  plan_runner_side(plan, *runner_side.planned, seeds, metrics);
  auto pod_annotator =
      plan_pod_annotator(config, inputs.environment, inputs.kubernetes_namespace, metrics);
  if (!pod_annotator.error.empty()) return refused(std::move(pod_annotator.error));
  plan.pod_annotator = std::move(pod_annotator.wiring);
  if (may_retire(config.retirement)) plan.retirement = config.retirement;
  if (autoscaling.plan) {
    plan.autoscaling_client = std::move(autoscaling.plan->client);
    plan.lifecycle_hooks = std::move(autoscaling.plan->lifecycle_hooks);
    plan.scaler = std::move(autoscaling.plan->scaler);
    plan.cloudwatch_client = std::move(autoscaling.plan->cloudwatch_client);
    plan.metrics_publisher = std::move(autoscaling.plan->publisher);
  }
  return {std::move(plan), runner_side.planned->unregister_url(), {}, 0};
}

}  // namespace runwarden

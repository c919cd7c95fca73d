// See scaling_plan.hpp.
#include "src/assembly/scaling_plan.hpp"

#include <fmt/format.h>

#include <vector>

#include "actors/scaler/scaler_actor.hpp"
#include "src/logging/logging.hpp"
#include "src/scrape/runner_capacity.hpp"

namespace runwarden {

namespace {

// gitlab-runner's bounds as the scaler counts them; a runner with more slots than fit the
// machine's 32-bit count does not exist.
std::optional<std::uint32_t> capacity_from(const gitlab_runner_config& runner) {
  std::vector<std::uint64_t> limits;
  // An entry without a token takes no jobs: gitlab-runner 19.1+ skips it (HasToken()).
  for (const auto& entry : runner.runners)
    if (has_token(entry))
      limits.push_back(entry.jobs_max > 0 ? static_cast<std::uint64_t>(entry.jobs_max) : 0);
  const auto capacity = runner_capacity(
      runner.concurrent > 0 ? std::optional<std::uint64_t>(runner.concurrent) : std::nullopt,
      limits);
  if (!capacity || *capacity == 0 || *capacity > UINT32_MAX) return std::nullopt;
  return static_cast<std::uint32_t>(*capacity);
}

}  // namespace

scaling_plan_result plan_scaling(const settings& config,
                                 const gitlab_runner_config* gitlab_runner) {
  // The publisher counts total slots by the same capacity as the scaler.
  if (!config.scaling.enabled && config.scaling.publish == metrics_publish::none) return {};
  scaling_policy policy = config.scaling.policy;
  if (config.scaling.capacity) {
    policy.capacity = *config.scaling.capacity;
    return {policy, {}};
  }
  if (!gitlab_runner)
    return {std::nullopt,
            "scaling: the runner's capacity is unknown: set scaling.capacity, or "
            "runner.gitlab_config (--gitlab-config) for gitlab-runner's concurrent and limits"};
  const auto capacity = capacity_from(*gitlab_runner);
  if (!capacity)
    return {std::nullopt, fmt::format("scaling: {} gives no usable concurrent setting; set "
                                      "scaling.capacity",
                                      config.runner.gitlab_config)};
  policy.capacity = *capacity;
  warden_logger()->info("scaling: the runner's capacity is {} job(s), from {}", *capacity,
                        config.runner.gitlab_config);
  return {policy, {}};
}

scaler_wiring wire_scaler(const scaling_policy& policy, std::uint64_t random_seed,
                          std::shared_ptr<metrics_registry> metrics) {
  scaling_observer observer{.decided =
                                [metrics](scaling_decision_kind kind) {
                                  metrics->count_scaling_decision(kind,
                                                                  std::chrono::system_clock::now());
                                },
                            .call_failed =
                                [metrics](scaling_call, autoscaling_failure_kind kind) {
                                  metrics->count_scaling_call_failure(kind);
                                }};
  return scaler_wiring{.policy = policy,
                       .random_seed = random_seed,
                       .autoscaling_client = {},
                       .warden = {},
                       .observer = std::move(observer)};
}

}  // namespace runwarden

#pragma once
// [scaling] as `runwarden run` starts it. The capacity is resolved before the runner starts
// (scaling.capacity, else gitlab-runner's concurrent and limits from runner.gitlab_config),
// so a scaler that could never know when the runner is saturated stops runwarden with a
// config error instead of running blind. wire_scaler then wires the scaler actor to the
// Auto Scaling client and the warden, its decisions and failures counted in /metrics
// (autoscaling_plan starts it under a supervisor).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "actors/scaler/scaler_actor.hpp"
#include "caf/all.hpp"
#include "src/config/settings.hpp"
#include "src/runner/gitlab_runner_config.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

struct scaling_plan_result {
  // Set when scaling is enabled or its job slots are published, and error is empty.
  std::optional<scaling_policy> policy;
  std::string error;  // a config problem: exit_config
};

// `gitlab_runner`: runner.gitlab_config as read (instance_inputs), null when none is named;
// the capacity comes from it when scaling.capacity is unset.
scaling_plan_result plan_scaling(const settings& config,
                                 const gitlab_runner_config* gitlab_runner = nullptr);

// Its peers (the warden, the Auto Scaling client) are left for the assembly to fill in.
scaler_wiring wire_scaler(const scaling_policy& policy, std::uint64_t random_seed,
                          std::shared_ptr<metrics_registry> metrics);

}  // namespace runwarden

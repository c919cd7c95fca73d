#pragma once
// The Auto Scaling side of an instance's plan, as `runwarden run` plans it: the Auto Scaling
// client (actors/autoscaling_client) and the workers that call it, the lifecycle hooks actor
// (terminate hooks: heartbeats and completion), the scaler when [scaling] is enabled, and the
// metrics publisher with its own client for CloudWatch when [scaling] publish is set.
// Everything that can be wrong in the configuration (the credentials chain, the metadata
// endpoint) is settled here, before the runner starts; the assembly starts the actors.
// Pure: the shared credentials file comes read (instance_inputs).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "actors/autoscaling_client/autoscaling_client_actor.hpp"
#include "actors/lifecycle_hooks/lifecycle_hooks_actor.hpp"
#include "actors/metrics_publisher/metrics_publisher_actor.hpp"
#include "actors/scaler/scaler_actor.hpp"
#include "src/assembly/instance_inputs.hpp"
#include "src/config/settings.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

// The wirings with their peers (HTTP port, client, warden) left for the assembly to fill.
struct autoscaling_plan {
  autoscaling_client_wiring client;
  std::optional<lifecycle_hooks_wiring> lifecycle_hooks = {};
  std::optional<scaler_wiring> scaler = {};
  std::optional<autoscaling_client_wiring> cloudwatch_client = {};
  std::optional<metrics_publisher_wiring> publisher = {};
};

struct autoscaling_plan_result {
  std::optional<autoscaling_plan> plan;  // nullopt with an empty error: not needed
  std::string error;                     // a configuration problem: exit_config
};

// Needed when cloud.provider is "aws" and hooks are completed, when scaling is enabled, or
// when job slots are published (`publish_capacity`: the runner's slots, set exactly then).
// `ready_needs_metrics`: the runner counts as ready for its launch hook only once its
// metrics answer (they are read). The hooks' heartbeats and completions, the scaler's
// decisions and the published points are counted in `metrics`. `seeds` is asked once per
// actor it plans.
autoscaling_plan_result plan_autoscaling(const instance_inputs& inputs,
                                         std::optional<scaling_policy> scaling,
                                         bool ready_needs_metrics,
                                         const std::function<std::uint64_t()>& seeds,
                                         std::shared_ptr<metrics_registry> metrics,
                                         std::optional<std::uint32_t> publish_capacity = {});

}  // namespace runwarden

#pragma once
// The plan of one runwarden instance, for every host: everything the settings, gitlab-runner's
// config.toml, the token and secret files and the environment say (gathered once beforehand:
// instance_inputs), checked in full before the runner starts, so that a mistake stops
// runwarden with a message naming it and nothing to undo. Pure: it reads no file and no
// environment, so the simulation plans its instances here too, from inputs held in memory.
// The assembly (src/assembly/instance) then starts what the plan says.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "src/assembly/instance_inputs.hpp"
#include "src/assembly/instance_plan.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

struct instance_planning {
  std::optional<instance_plan> plan;  // set exactly when error is empty
  // The CI server a drain unregisters from (the first, if several); empty if none.
  std::string unregister_url;
  std::string error;
  int exit_code = 0;  // with an error: exit_config
};

// `seeds` is asked once per worker that draws random numbers (backoff jitter); the workers'
// outcomes (webhook deliveries, unregistration attempts, metadata answers, lifecycle
// heartbeats and completions, scaling decisions) are counted in `metrics`.
instance_planning plan_instance(const instance_inputs& inputs,
                                const std::function<std::uint64_t()>& seeds,
                                std::shared_ptr<metrics_registry> metrics);

}  // namespace runwarden

#pragma once
// [kubernetes] as `runwarden run` starts it: where the pod is (API server,
// namespace, name, token and CA files), resolved before the runner starts, so that a pod
// without POD_NAME or a service account stops runwarden with a config error that names what
// is missing. Disabled, it reads nothing and opens nothing.

#include <memory>
#include <optional>
#include <string>

#include "actors/pod_annotator/pod_annotator_actor.hpp"
#include "src/config/settings.hpp"
#include "src/telemetry/metrics_registry.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

struct pod_annotator_planning {
  std::optional<pod_annotator_wiring> wiring;  // empty when disabled or refused
  std::string error;                           // a config problem: exit_config
};

// Its peers (the HTTP port, the warden) are left for the assembly to fill in; its patches
// are counted in `metrics` by outcome.
// `namespace_file` is the service account's namespace file as gathered (instance_inputs).
pod_annotator_planning plan_pod_annotator(const settings& config,
                                          const environment_map& environment,
                                          const std::optional<std::string>& namespace_file,
                                          std::shared_ptr<metrics_registry> metrics);

}  // namespace runwarden

#pragma once
// runwarden's line to the Auto Scaling API as `runwarden run` wires it: one HTTP port on a
// worker thread of its own, the Auto Scaling client (actors/autoscaling_client) and, under
// a supervisor of their own, the lifecycle hooks actor (terminate hooks: heartbeats and
// completion) and the scaler when [scaling] is enabled. plan() settles everything that can
// be wrong in the configuration (the credentials chain, the metadata endpoint) before the
// runner starts; start() spawns the actors once the warden exists.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "src/aws/aws_credentials.hpp"
#include "src/config/settings.hpp"
#include "src/ports/http/http_worker.hpp"
#include "src/telemetry/metrics_registry.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

class autoscaling_link {
 public:
  struct plan_result {
    std::unique_ptr<autoscaling_link> link;  // null with an empty error: not needed
    std::string error;                       // a configuration problem: exit_config
  };

  // Needed when cloud.provider is "aws" and hooks are completed, or when scaling is enabled.
  static plan_result plan(const settings& config, const environment_map& environment,
                          std::optional<scaling_policy> scaling);

  // `ready_needs_metrics`: the runner counts as ready for its launch hook only once its
  // metrics answer (they are read).
  void start(caf::actor_system& system, const caf::actor& warden, bool ready_needs_metrics,
             std::uint64_t seed, std::shared_ptr<metrics_registry> metrics);
  // The supervisors of the hooks actor and the scaler, for the warden to listen to and for
  // run_command to monitor.
  std::vector<caf::actor> supervisors() const;
  void stop();

  ~autoscaling_link();

 private:
  autoscaling_link() = default;

  settings config_;
  environment_map environment_;
  std::string imds_endpoint_;
  std::optional<aws_credentials> fixed_credentials_;
  std::optional<scaling_policy> scaling_;
  std::shared_ptr<http_worker> worker_;
  caf::actor port_, client_, hooks_supervisor_, scaler_supervisor_;
};

}  // namespace runwarden

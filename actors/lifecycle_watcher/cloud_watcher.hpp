#pragma once
// A cloud watcher as `runwarden run` wires it: the watcher actor of the configured cloud
// under a supervisor of its own, with the production HTTP ports it needs (libcurl, each on
// its own worker thread, so that a hanging metadata request never delays anything else).
// The handle owns those threads, which is why stopping goes through it.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "src/config/settings.hpp"
#include "src/ports/http/http_worker.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

class cloud_watcher {
 public:
  cloud_watcher(caf::actor supervisor, std::vector<http_port_actor> ports,
                std::vector<std::shared_ptr<http_worker>> workers);

  // The watcher runs under a supervisor of its own (worker_supervision.hpp); a restarted
  // watcher reads afresh and may report a notice again, which the drain machine ignores.
  const caf::actor& supervisor() const { return supervisor_; }

  // Ends the actors and joins the worker threads, which takes at most one request timeout
  // each. Safe to call twice.
  void stop();

 private:
  caf::actor supervisor_;
  std::vector<http_port_actor> ports_;
  std::vector<std::shared_ptr<http_worker>> workers_;
};

struct cloud_watcher_spawn_result {
  // Set when a cloud is configured and error is empty; nullopt with no error for "none".
  std::optional<cloud_watcher> watcher;
  std::string error;
};

// Why spawn_cloud_watcher would refuse `config` (a bad endpoint, named with where it came
// from); empty when it would not.
std::string cloud_watcher_problem(const settings& config, const environment_map& environment);

// The watcher of config.cloud.provider. `listener` receives lifecycle_trigger (and, on AWS,
// instance_identity; on Azure, lifecycle_action_pending and lifecycle_action_completed, as
// the watcher is the lifecycle client of its events); `environment` is consulted for each
// cloud's endpoint variable. `answered` is called on every answer of the cloud's metadata
// service (for /metrics).
cloud_watcher_spawn_result spawn_cloud_watcher(caf::actor_system& system, const settings& config,
                                               const environment_map& environment,
                                               caf::actor listener, std::uint64_t random_seed,
                                               std::function<void()> answered = {});

}  // namespace runwarden

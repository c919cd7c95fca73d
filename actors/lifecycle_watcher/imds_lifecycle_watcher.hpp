#pragma once
// The lifecycle watcher as `runwarden run` would wire it: the watcher actor on a production
// HTTP port of its own (libcurl on its own worker thread, so a slow webhook never delays a
// poll). spawn_lifecycle_watcher resolves the metadata endpoint from the settings and the
// environment first and refuses a bad one with a message naming where it came from. The
// returned handle owns the worker thread, which is why stopping goes through it.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "caf/all.hpp"
#include "actors/lifecycle_watcher/lifecycle_watcher_actor.hpp"
#include "messages/http_messages.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/aws/imds/imds_endpoint.hpp"
#include "src/config/settings.hpp"
#include "src/ports/http/http_worker.hpp"

namespace runwarden {

class imds_lifecycle_watcher {
 public:
  imds_lifecycle_watcher(caf::actor supervisor, http_port_actor port,
                         std::shared_ptr<http_worker> worker);

  // The watcher runs under a supervisor of its own (worker_supervision.hpp); a restarted
  // watcher polls afresh and may report a level again, which the drain machine ignores.
  const caf::actor& supervisor() const { return supervisor_; }

  // Ends both actors and joins the worker thread, which takes at most one request timeout.
  // Safe to call twice.
  void stop();

 private:
  caf::actor supervisor_;
  http_port_actor port_;
  std::shared_ptr<http_worker> worker_;
};

struct lifecycle_watcher_spawn_result {
  // Set when the provider is "aws" and error is empty; nullopt with no error for "none".
  std::optional<imds_lifecycle_watcher> watcher;
  std::string error;
};

struct lifecycle_watcher_plan_result {
  // Its http_port, listener and answered still empty. Set when the provider is "aws" and
  // error is empty; nullopt with no error for "none".
  std::optional<lifecycle_watcher_wiring> wiring;
  std::string error;
};

// The watcher's wiring for these settings, its endpoint resolved (the refusals above).
lifecycle_watcher_plan_result plan_lifecycle_watcher(const aws_settings& settings,
                                                     const environment_map& environment,
                                                     std::uint64_t random_seed);

// `listener` receives lifecycle_trigger and instance_identity (lifecycle_messages.hpp);
// `answered` is called on every answer of the metadata service (lifecycle_watcher_wiring).
// `environment` is consulted for AWS_EC2_METADATA_SERVICE_ENDPOINT only.
lifecycle_watcher_spawn_result spawn_lifecycle_watcher(caf::actor_system& system,
                                                       const aws_settings& settings,
                                                       const environment_map& environment,
                                                       caf::actor listener,
                                                       std::uint64_t random_seed,
                                                       std::function<void()> answered = {});

}  // namespace runwarden

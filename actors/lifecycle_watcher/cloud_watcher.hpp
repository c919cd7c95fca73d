#pragma once
// A cloud's watcher spawned alone (spawn_lifecycle_watcher, spawn_azure_watcher,
// spawn_gcp_watcher; an instance starts its watcher in its own tree instead): the watcher
// actor under a supervisor of its own, with the production HTTP ports it needs (libcurl,
// each on its own worker thread, so that a hanging metadata request never delays anything
// else). The handle owns those threads, which is why stopping goes through it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/supervisor_messages.hpp"
#include "src/ports/http/http_worker.hpp"

namespace runwarden {

class cloud_watcher {
 public:
  cloud_watcher(supervisor_actor supervisor, std::vector<http_port_actor> ports,
                std::vector<std::shared_ptr<http_worker>> workers);

  // The watcher runs under a supervisor of its own (worker_supervision.hpp); a restarted
  // watcher reads afresh and may report a notice again, which the drain machine ignores.
  const supervisor_actor& supervisor() const { return supervisor_; }

  // Ends the actors and joins the worker threads, which takes at most one request timeout
  // each. Safe to call twice.
  void stop();

 private:
  supervisor_actor supervisor_;
  std::vector<http_port_actor> ports_;
  std::vector<std::shared_ptr<http_worker>> workers_;
};

struct cloud_watcher_spawn_result {
  // Set when a cloud is configured and error is empty; nullopt with no error for "none".
  std::optional<cloud_watcher> watcher;
  std::string error;
};

}  // namespace runwarden

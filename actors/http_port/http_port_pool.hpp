#pragma once
// Production HTTP ports for the workers of one instance, each on a libcurl worker thread of
// its own, so that a slow CI server never delays a scrape or a lifecycle poll. The pool
// owns the threads: stop() ends the port actors and joins the threads, which takes at most
// one request timeout each.

#include <memory>
#include <vector>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "src/ports/http/http_worker.hpp"

namespace runwarden {

class http_port_pool {
 public:
  explicit http_port_pool(caf::actor_system& system) : system_(system) {}
  http_port_pool(const http_port_pool&) = delete;
  http_port_pool& operator=(const http_port_pool&) = delete;
  ~http_port_pool() { stop(); }

  // A new port on a new worker thread.
  http_port_actor add();
  // Safe to call twice.
  void stop();

 private:
  caf::actor_system& system_;
  std::vector<http_port_actor> ports_;
  std::vector<std::shared_ptr<http_worker>> workers_;
};

}  // namespace runwarden

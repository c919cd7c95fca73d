#pragma once
// Production HTTP ports for the workers of one instance. Each port has a client of its own
// on the io thread for plain HTTP (its own kept-alive connection and queue, all
// asynchronous) and a libcurl worker thread of its own for the rest, started only when the
// first such request comes; so a slow CI server never delays a scrape or a lifecycle poll,
// and an instance that only polls its metadata service and its runner's /metrics runs no
// HTTP thread. The pool owns the clients: stop() ends the port actors, answers what the io
// thread still holds and joins the worker threads, which takes at most one request timeout
// each.

#include <boost/asio/io_context.hpp>
#include <memory>
#include <vector>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "src/ports/http/http_worker.hpp"
#include "src/ports/http/plain_http_client.hpp"

namespace runwarden {

class http_port_pool {
 public:
  // `io` must keep running until stop() returned, and `system` until stop() was called.
  http_port_pool(caf::actor_system& system, boost::asio::io_context& io)
      : system_(system), io_(io) {}
  http_port_pool(const http_port_pool&) = delete;
  http_port_pool& operator=(const http_port_pool&) = delete;
  ~http_port_pool() { stop(); }

  // A new port with clients of its own.
  http_port_actor add();
  // Blocks: call it from a thread that is not a CAF worker. Safe to call twice.
  void stop();

 private:
  caf::actor_system& system_;
  boost::asio::io_context& io_;
  std::vector<http_port_actor> ports_;
  std::vector<std::shared_ptr<http_worker>> workers_;
  std::vector<std::shared_ptr<plain_http_client>> plain_clients_;
};

}  // namespace runwarden

#pragma once
// Accepts HTTP connections up to the connection limit and hands each to an http_session.
// At the limit a newcomer is still admitted once some session has waited for a request
// for eviction_wait_min: the one that has waited longest is evicted for it, so idle or
// trickling connections (which cost an attacker nothing) cannot keep a health probe out
//. Until then, and while every session is busy answering, it stops accepting,
// so further clients wait in the kernel's listen backlog instead of costing memory here;
// it resumes when a session ends, starts waiting or becomes old enough to evict. Runs on
// the endpoints' io_context thread only.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "src/control/http_limits.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

class http_session;

class http_listener : public std::enable_shared_from_this<http_listener> {
 public:
  http_listener(boost::asio::ip::tcp::acceptor acceptor, metrics_registry& registry,
                http_limits limits);

  // Begins accepting. Call once, before the io_context runs or on its thread.
  void start();

 private:
  void accept_next();
  void on_accept(boost::system::error_code error, boost::asio::ip::tcp::socket socket);
  void on_session_closed();
  void on_session_waiting();
  std::shared_ptr<http_session> longest_waiting();
  bool evictable(const http_session& session) const;
  void resume_at(std::chrono::steady_clock::time_point when);
  void prune_ended();

  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_timer_;  // after a failed accept, or until one is evictable
  metrics_registry& registry_;
  const http_limits limits_;
  std::size_t connections_ = 0;  // at most limits_.connections_max
  bool accepting_ = false;       // an accept or the retry timer is pending
  // The sessions holding a slot, for eviction; ended ones are pruned as they are met.
  std::vector<std::weak_ptr<http_session>> sessions_;
};

}  // namespace runwarden

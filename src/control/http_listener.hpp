#pragma once
// Accepts HTTP connections up to the connection limit and hands each to an http_session.
// At the limit it stops accepting, so further clients wait in the kernel's listen backlog
// instead of costing memory here, and it resumes when a session ends. Runs on the
// endpoints' io_context thread only.

#include <cstddef>
#include <memory>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "src/control/http_limits.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

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

  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_timer_;
  metrics_registry& registry_;
  const http_limits limits_;
  std::size_t connections_ = 0;  // at most limits_.connections_max
  bool accepting_ = false;       // an accept or its retry is pending
};

}  // namespace runwarden

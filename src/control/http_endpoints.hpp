#pragma once
// The HTTP side of the control plane: /metrics, /healthz and /readyz on
// control_settings.http_listen, served by Boost.Beast on a thread of its own so that a slow
// scraper never holds up an actor. Starting reports a bad address or a failed bind as an
// error text for the caller to print; nothing throws.

#include <cstdint>
#include <memory>
#include <string>

#include "src/config/settings.hpp"
#include "src/control/http_limits.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

class http_endpoints;

struct http_start_result {
  std::unique_ptr<http_endpoints> endpoints;  // null when disabled ("none") or on error
  std::string error;                          // empty unless starting failed
};

class http_endpoints {
 public:
  // Listens on settings.http_listen (HOST:PORT or [IPv6]:PORT; port 0 picks a free port)
  // and logs the address it got. `registry` must outlive the endpoints.
  static http_start_result start(const control_settings& settings, metrics_registry& registry,
                                 const http_limits& limits = {});

  ~http_endpoints();
  http_endpoints(const http_endpoints&) = delete;
  http_endpoints& operator=(const http_endpoints&) = delete;

  std::uint16_t port() const { return port_; }
  const std::string& address() const { return address_; }  // "127.0.0.1:9253", "[::1]:9253"

  // Closes the listener and every connection and joins the thread. Idempotent; call it from
  // any thread but the endpoints' own.
  void stop();

 private:
  struct running;
  http_endpoints(std::unique_ptr<running> serving, std::uint16_t port, std::string address);

  std::unique_ptr<running> running_;
  std::uint16_t port_ = 0;
  std::string address_;
};

}  // namespace runwarden

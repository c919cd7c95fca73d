#pragma once
// Test helpers that talk to the HTTP endpoints from outside, as scrapers and probes do: a
// libcurl client (one handle, so keep-alive can be observed), a raw socket for requests no
// well-behaved client sends, and promtool for checking an exposition.

#include <curl/curl.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace runwarden::testing {

struct http_reply {
  long status = 0;
  std::string content_type;
  std::string allow;
  std::string content_length;
  std::string body;
  std::string error;         // curl's message when the transfer failed
  long new_connections = 0;  // connections curl opened for this request
};

class http_client {
 public:
  http_client();
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  http_reply fetch(const std::string& url, const std::string& method = "GET",
                   std::chrono::milliseconds timeout = std::chrono::seconds{10});

 private:
  CURL* handle_;
};

// Connects to 127.0.0.1:port; returns the socket, or -1.
int connect_loopback(std::uint16_t port);

// Sends `request` (may be empty) and reads until the server closes or `timeout` passes.
struct raw_exchange {
  std::string received;
  bool closed_by_server = false;
};
raw_exchange exchange_raw(int socket, const std::string& request,
                          std::chrono::milliseconds timeout);

struct promtool_verdict {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
promtool_verdict check_with_promtool(const std::string& exposition);

}  // namespace runwarden::testing

#pragma once
// What one HTTP exchange is made of: a host lookup, a request, and their answers, as plain
// values. The pure modules that plan requests and read answers (metrics, unregister, webhook)
// build and read these without knowing the actor that carries them; messages/http_messages.hpp
// makes them the HTTP port's messages.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace runwarden {

using http_header_list = std::vector<std::pair<std::string, std::string>>;

// Tells the HTTP client which addresses `host`:`port` means for one request, so that a name
// checked once cannot resolve elsewhere when it is used (CURLOPT_RESOLVE).
struct resolve_pin {
  std::string host;
  std::uint16_t port = 0;
  std::vector<std::string> addresses;  // numeric, IPv4 or IPv6, at least one
};

// Answered with one host_lookup_result carrying the same id.
struct host_lookup {
  std::uint64_t id = 0;
  std::string host;  // a name; numeric hosts need no lookup
  std::chrono::milliseconds timeout{0};
};

struct host_lookup_result {
  std::uint64_t id = 0;
  std::vector<std::string> addresses;  // numeric; empty exactly when error is set
  std::string error;
};

// Answered with one http_response carrying the same id. Redirects are never followed.
struct http_request {
  std::uint64_t id = 0;
  std::string method = {};  // "POST", "PUT", ...
  std::string url = {};     // http:// or https:// only
  http_header_list headers = {};
  std::string body = {};
  std::chrono::milliseconds timeout{0};  // the whole transfer, connection included
  std::vector<resolve_pin> pins = {};
  // A longer body fails the request rather than being buffered: remote servers choose sizes.
  std::size_t max_response_bytes = 64 * 1024;
  // Go through the proxy the environment names for this URL (https_proxy, http_proxy,
  // no_proxy, read by libcurl as curl reads them); otherwise never through a proxy.
  bool environment_proxy = false;
  // A PEM file of the CAs to trust for https instead of the system's (a Kubernetes service
  // account's ca.crt); empty: the system's.
  std::string ca_file = {};
};

struct http_response {
  std::uint64_t id = 0;
  std::optional<int> status_code = std::nullopt;  // set when the server answered
  std::string transport_error = {};  // set when it did not: refused, timed out, TLS, ...
  std::string body = {};             // at most the request's max_response_bytes
  http_header_list headers = {};     // of the final response; names in lower case
};

}  // namespace runwarden

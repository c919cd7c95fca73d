#pragma once
// The vocabulary of the HTTP port: what an actor asks of it (a host lookup, a request) and
// what the port answers. Logic actors never open a socket or resolve a name themselves; they
// send these to the port, and the port answers the asking actor with anon_send. Production
// wires the libcurl port, tests and the simulation a scripted actor with the same interface.
//
// The messages never leave the process, so they are allowed as unsafe local types rather
// than given inspect() overloads CAF 0.17 could not apply to std::optional anyway.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "caf/all.hpp"

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
};

struct http_response {
  std::uint64_t id = 0;
  std::optional<int> status_code = std::nullopt;  // set when the server answered
  std::string transport_error = {};  // set when it did not: refused, timed out, TLS, ...
  std::string body = {};             // at most the request's max_response_bytes
  http_header_list headers = {};     // of the final response; names in lower case
};

// The HTTP port. Every accepted message gets exactly one answer, sent to the asking actor;
// a full queue or a stopped port answers at once with an error.
using http_port_actor =
    caf::typed_actor<caf::reacts_to<host_lookup>, caf::reacts_to<http_request>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::host_lookup)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::host_lookup_result)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::http_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::http_response)

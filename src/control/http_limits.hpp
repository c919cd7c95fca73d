#pragma once
// The bounds of the HTTP endpoints: how many connections, how large a request, how long a
// read or write may take, how many requests one connection may make. Scrapers and probes
// send a few hundred bytes, so these are generous for them and small for anything else.

#include <chrono>
#include <cstddef>

namespace runwarden {

struct http_limits {
  std::size_t connections_max = 64;  // further clients wait in the listen backlog
  std::size_t request_header_bytes_max = 8 * 1024;
  std::size_t request_body_bytes_max = 1024;  // GET and HEAD carry none
  std::size_t requests_per_connection_max = 1000;
  // A keep-alive connection idle this long is closed, as is one whose request stalls.
  std::chrono::milliseconds read_timeout{std::chrono::seconds{10}};
  std::chrono::milliseconds write_timeout{std::chrono::seconds{10}};
};

}  // namespace runwarden

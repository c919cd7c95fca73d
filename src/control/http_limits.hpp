#pragma once
// The bounds of the HTTP endpoints: how many connections, how large a request, how long a
// read or write may take, how many requests one connection may make. Scrapers and probes
// send a few hundred bytes, so these are generous for them and small for anything else.
// A connection that authenticates nothing must not hold a slot the probes need:
// each request has to arrive whole within read_timeout, and when every slot is taken the
// connection that has waited longest for its request is closed to admit the newcomer.

#include <chrono>
#include <cstddef>

namespace runwarden {

struct http_limits {
  // Past this the connection that has waited longest for a request is closed for the
  // newcomer, once it has waited eviction_wait_min; until then (and while every connection
  // is being answered) further clients wait in the listen backlog.
  std::size_t connections_max = 64;
  // A connection is evicted only after waiting this long for its next request: a younger
  // one may be a kept-alive client whose request is already on its way, and closing it
  // would fail that request. A probe under a flood waits at most this long.
  std::chrono::milliseconds eviction_wait_min{std::chrono::seconds{1}};
  std::size_t request_header_bytes_max = 8 * 1024;
  std::size_t request_body_bytes_max = 1024;  // GET and HEAD carry none
  std::size_t requests_per_connection_max = 1000;
  // A whole request (from a new connection, or the next one on a kept-alive connection)
  // must arrive within this, or the connection is closed: idle and trickling alike.
  std::chrono::milliseconds read_timeout{std::chrono::seconds{5}};
  std::chrono::milliseconds write_timeout{std::chrono::seconds{10}};
};

}  // namespace runwarden

#pragma once
// One HTTP connection: read a request within the limits, answer it from http_routes, keep
// the connection open while the client asks to and the per-connection budget lasts. Runs
// only on the endpoints' io_context thread, so it needs no lock of its own. While it waits
// for a request it may be evicted: the listener closes it to admit a newcomer when every
// slot is taken (http_listener.hpp).

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "src/control/http_limits.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

// What a session tells its listener.
struct http_session_hooks {
  // Runs once when the session gives its connection slot back: when it ends, however it
  // ends (the io_context's teardown included), or when it is evicted.
  std::function<void()> closed;
  // Runs each time the session starts waiting for a request, so that it may be evicted.
  std::function<void()> waiting;
};

class http_session : public std::enable_shared_from_this<http_session> {
 public:
  using clock = std::chrono::steady_clock;

  http_session(boost::asio::ip::tcp::socket socket, const http_limits& limits,
               metrics_registry& registry, http_session_hooks hooks);
  ~http_session();
  http_session(const http_session&) = delete;
  http_session& operator=(const http_session&) = delete;

  void start();

  // Since when it waits for a request (none arrived whole yet); empty while it answers one,
  // and once it is evicted or closing.
  std::optional<clock::time_point> waiting_since() const { return waiting_since_; }

  // Closes the connection of a session waiting for a request and gives its slot back at
  // once; the session object itself ends when its cancelled read completes.
  void evict();

 private:
  using request_parser = boost::beast::http::request_parser<boost::beast::http::string_body>;
  using response = boost::beast::http::response<boost::beast::http::string_body>;

  void read_request();
  void on_read(boost::beast::error_code error, std::size_t bytes);
  void reject_malformed(boost::beast::error_code error);
  void write_response(bool keep_alive);
  void on_write(bool keep_alive, boost::beast::error_code error, std::size_t bytes);
  void close();

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  const http_limits limits_;
  metrics_registry& registry_;
  http_session_hooks hooks_;
  std::optional<request_parser> parser_;
  std::optional<clock::time_point> waiting_since_;
  response response_;
  std::size_t requests_served_ = 0;
};

}  // namespace runwarden

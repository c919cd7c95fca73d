#pragma once
// One HTTP connection: read a request within the limits, answer it from http_routes, keep
// the connection open while the client asks to and the per-connection budget lasts. Runs
// only on the endpoints' io_context thread, so it needs no lock of its own.

#include <functional>
#include <memory>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "src/control/http_limits.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

class http_session : public std::enable_shared_from_this<http_session> {
public:
  // `on_closed` runs when the session ends, however it ends (the io_context's teardown
  // included), to give back the connection slot.
  http_session(boost::asio::ip::tcp::socket socket, const http_limits& limits,
               metrics_registry& registry, std::function<void()> on_closed);
  ~http_session();
  http_session(const http_session&) = delete;
  http_session& operator=(const http_session&) = delete;

  void start();

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
  std::function<void()> on_closed_;
  std::optional<request_parser> parser_;
  response response_;
  std::size_t requests_served_ = 0;
};

}  // namespace runwarden

// See http_session.hpp. A request that breaks the limits or the protocol gets one short
// error answer and the connection closes; a client that goes quiet is cut off by the read
// timeout, which is also how idle keep-alive connections end. An evicted session's read
// completes with operation_aborted, which answers nothing.
#include "src/control/http_session.hpp"

#include <string_view>
#include <utility>

#include "src/control/http_routes.hpp"

namespace runwarden {

namespace {

namespace beast = boost::beast;
namespace http = boost::beast::http;

using response = http::response<http::string_body>;

bool is_protocol_error(const beast::error_code& error) {
  return error.category() == http::make_error_code(http::error::bad_method).category();
}

unsigned status_for(const beast::error_code& error) {
  if (error == http::error::header_limit) return 431;
  if (error == http::error::body_limit) return 413;
  return 400;
}

response make_response(const http_answer& answer, unsigned version, bool head, bool keep_alive) {
  response result{static_cast<http::status>(answer.status), version};
  result.set(http::field::server, "runwarden");
  result.set(http::field::content_type, answer.content_type);
  if (!answer.allow.empty()) result.set(http::field::allow, answer.allow);
  result.keep_alive(keep_alive);
  // A HEAD answer carries the length the GET body would have, and no body.
  if (!head) result.body() = answer.body;
  result.content_length(answer.body.size());
  return result;
}

std::string_view as_std(beast::string_view text) { return {text.data(), text.size()}; }

}  // namespace

http_session::http_session(boost::asio::ip::tcp::socket socket, const http_limits& limits,
                           metrics_registry& registry, http_session_hooks hooks)
    : stream_(std::move(socket)),
      buffer_(limits.request_header_bytes_max + limits.request_body_bytes_max),
      limits_(limits),
      registry_(registry),
      hooks_(std::move(hooks)) {}

http_session::~http_session() {
  if (hooks_.closed) hooks_.closed();
}

void http_session::start() { read_request(); }

void http_session::evict() {
  if (!waiting_since_) return;
  waiting_since_.reset();
  stream_.close();
  // The slot is given back now, not when the cancelled read's handler runs: the listener
  // admits the newcomer in its place without ever counting more than connections_max.
  auto closed = std::exchange(hooks_.closed, nullptr);
  if (closed) closed();
}

void http_session::read_request() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(limits_.request_header_bytes_max));
  parser_->body_limit(limits_.request_body_bytes_max);
  // One deadline for the whole request, however it trickles in (beast's timer is not reset
  // by each partial read).
  stream_.expires_after(limits_.read_timeout);
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&http_session::on_read, shared_from_this()));
  waiting_since_ = clock::now();
  if (hooks_.waiting) hooks_.waiting();
}

void http_session::on_read(beast::error_code error, std::size_t) {
  waiting_since_.reset();
  if (error == http::error::end_of_stream) return close();
  // A timeout has closed the socket already; other socket errors leave nothing to answer.
  if (error) {
    if (is_protocol_error(error)) reject_malformed(error);
    return;
  }
  const auto& request = parser_->get();
  const auto answer =
      answer_request(as_std(request.method_string()), as_std(request.target()), registry_);
  ++requests_served_;
  const bool keep_alive =
      request.keep_alive() && requests_served_ < limits_.requests_per_connection_max;
  response_ =
      make_response(answer, request.version(), request.method() == http::verb::head, keep_alive);
  write_response(keep_alive);
}

void http_session::reject_malformed(beast::error_code error) {
  registry_.count_error(error_kind::http_request);
  const http_answer answer{status_for(error),
                           std::string{plain_text_content_type},
                           "bad request: " + error.message() + "\n",
                           {}};
  response_ = make_response(answer, 11, false, false);
  write_response(false);
}

void http_session::write_response(bool keep_alive) {
  stream_.expires_after(limits_.write_timeout);
  http::async_write(
      stream_, response_,
      beast::bind_front_handler(&http_session::on_write, shared_from_this(), keep_alive));
}

void http_session::on_write(bool keep_alive, beast::error_code error, std::size_t) {
  if (error) return;
  if (!keep_alive) return close();
  read_request();
}

void http_session::close() {
  beast::error_code ignored;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
}

}  // namespace runwarden

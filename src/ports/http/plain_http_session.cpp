// See plain_http_session.hpp. Each request is an `exchange` and each TCP connection a
// `connection`, both shared with the handlers of the operations in flight: a request that
// times out or is abandoned closes its socket and is answered at once, and its operations
// complete later with operation_aborted, still owning their buffers, and find that they are
// no longer the session's current exchange. The error texts follow libcurl's where logs and
// tests know them ("Operation timed out after ...", "Failed to connect to ... : Connection
// refused", "Could not resolve host: ..."), so that the two clients read the same.
#include "src/ports/http/plain_http_session.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <optional>

#include "src/ports/http/http_request_rules.hpp"
#include "src/util/assert.hpp"
#include "src/webhook/webhook_target.hpp"

namespace runwarden {

namespace http = boost::beast::http;
using boost::asio::ip::tcp;
using boost::system::error_code;

struct plain_http_session::connection {
  explicit connection(boost::asio::io_context& context) : socket(context) {}
  tcp::socket socket;
  boost::beast::flat_buffer buffer;  // bytes read past an answer stay with the connection
  std::string host;
  std::uint16_t port = 0;
  tcp::endpoint peer;  // the address it connected to
};

struct plain_http_session::exchange {
  http_request request;
  webhook_target target;
  answer_handler done;
  http::request<http::string_body> message;
  std::optional<http::response_parser<http::string_body>> parser;
  connection_ptr link;
  bool reused = false;   // sent on a connection kept from an earlier request
  bool retried = false;  // at most one retry, on a fresh connection
  const char* stage = "looking up the host";
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  std::string where() const { return target.label(); }
  long long elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 started)
        .count();
  }
};

namespace {

http::request<http::string_body> message_for(const http_request& request,
                                             const webhook_target& target) {
  http::request<http::string_body> message;
  message.method_string(request.method);
  message.target(target.path_and_query);
  message.version(11);
  // As libcurl writes it: the port only when it is not the scheme's default.
  if (!has_header(request, "HOST")) {
    const bool ipv6 = target.host.find(':') != std::string::npos;
    const auto host = ipv6 ? "[" + target.host + "]" : target.host;
    const auto port = ":" + std::to_string(target.port);
    message.set(http::field::host, target.port == 80 ? host : host + port);
  }
  for (const auto& [name, value] : request.headers) message.insert(name, value);
  if (sends_body(request)) {
    message.body() = request.body;
    message.content_length(request.body.size());
  }
  return message;
}

http_response response_from(std::uint64_t id, const http::response<http::string_body>& answer) {
  http_response response{.id = id, .status_code = static_cast<int>(answer.result_int())};
  response.body = answer.body();
  for (const auto& field : answer) {
    std::string name{field.name_string()};
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    response.headers.emplace_back(std::move(name), std::string{field.value()});
  }
  return response;
}

// Host names compare without regard to case, as libcurl matches its CURLOPT_RESOLVE entries.
bool same_host(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [&](char x, char y) { return lower(x) == lower(y); });
}

// An idle kept connection is fit for the next request only when nothing came on it since the
// last answer: an end of stream (the server closed it) or unasked bytes (a server's parting
// 408) both mean the server is done with it. libcurl checks its idle connections alike.
bool idle_and_open(tcp::socket& socket) {
  if (!socket.is_open()) return false;
  char byte = 0;
  const auto got = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

// The addresses a pin gives for the target, or an error naming the one that is not numeric.
std::optional<std::vector<tcp::endpoint>> pinned_endpoints(const http_request& request,
                                                           const webhook_target& target,
                                                           std::string& error) {
  for (const auto& pin : request.pins) {
    if (pin.port != target.port || !same_host(pin.host, target.host)) continue;
    std::vector<tcp::endpoint> endpoints;
    for (const auto& address : pin.addresses) {
      error_code invalid;
      const auto parsed = boost::asio::ip::make_address(address, invalid);
      if (invalid) {
        error = "the pinned address \"" + address + "\" for " + pin.host + " is not an address";
        return std::nullopt;
      }
      endpoints.emplace_back(parsed, target.port);
    }
    return endpoints;
  }
  return std::vector<tcp::endpoint>{};
}

}  // namespace

plain_http_session::plain_http_session(boost::asio::io_context& context)
    : context_(context), resolver_(context), deadline_(context) {}

void plain_http_session::perform(http_request request, answer_handler done) {
  RUNWARDEN_ASSERT(!current_ && done);
  RUNWARDEN_ASSERT(request.timeout.count() > 0);
  auto current = std::make_shared<exchange>();
  current->done = std::move(done);
  current->request = std::move(request);
  current_ = current;
  auto parsed = parse_webhook_target(current->request.url);
  if (!parsed.target || parsed.target->scheme != "http") {
    fail(current, parsed.target ? "only http:// URLs are carried on the io thread"
                                : "the URL is not usable: " + parsed.error);
    return;
  }
  current->target = std::move(*parsed.target);
  current->message = message_for(current->request, current->target);
  deadline_.expires_after(current->request.timeout);
  deadline_.async_wait([self = shared_from_this(), current](error_code error) {
    if (error || self->current_ != current) return;
    self->fail(current, "Operation timed out after " + std::to_string(current->elapsed_ms()) +
                            " milliseconds " + current->stage + " (" + current->where() + ")");
  });
  open_connection(current);
}

void plain_http_session::abandon(const std::string& why) {
  // At once, not posted: a stopping io thread may run nothing posted after this.
  if (const auto current = current_) fail(current, why, answer_when::now);
  forget_connection();
}

void plain_http_session::open_connection(const exchange_ptr& current) {
  const auto& target = current->target;
  std::string pin_error;
  auto endpoints = pinned_endpoints(current->request, target, pin_error);
  if (!endpoints) return fail(current, pin_error);
  // A kept connection serves the same host and port, and only at an address still pinned.
  const bool same_server = kept_ && kept_->host == target.host && kept_->port == target.port &&
                           (endpoints->empty() || std::find(endpoints->begin(), endpoints->end(),
                                                            kept_->peer) != endpoints->end());
  if (same_server && idle_and_open(kept_->socket)) {
    current->link = kept_;
    current->reused = true;
    send(current);
    return;
  }
  forget_connection();  // another server, or closed: a new connection
  current->reused = false;
  if (endpoints->empty() && target.host_is_address)
    endpoints->emplace_back(boost::asio::ip::make_address(target.host), target.port);
  if (!endpoints->empty()) return connect(current, *endpoints);
  current->stage = "looking up the host";
  resolver_.async_resolve(
      target.host, std::to_string(target.port),
      [self = shared_from_this(), current](error_code error, tcp::resolver::results_type found) {
        if (self->current_ != current) return;
        if (error)
          return self->fail(current, "Could not resolve host: " + current->target.host + " (" +
                                         error.message() + ")");
        std::vector<tcp::endpoint> endpoints;
        for (const auto& entry : found) endpoints.push_back(entry.endpoint());
        self->connect(current, endpoints);
      });
}

void plain_http_session::connect(const exchange_ptr& current,
                                 const std::vector<tcp::endpoint>& endpoints) {
  current->stage = "connecting";
  current->link = std::make_shared<connection>(context_);
  current->link->host = current->target.host;
  current->link->port = current->target.port;
  boost::asio::async_connect(
      current->link->socket, endpoints,
      [self = shared_from_this(), current](error_code error, const tcp::endpoint& peer) {
        if (self->current_ != current) return;
        if (error)
          return self->fail(current, "Failed to connect to " + current->target.host + " port " +
                                         std::to_string(current->target.port) + " after " +
                                         std::to_string(current->elapsed_ms()) +
                                         " ms: " + error.message());
        current->link->peer = peer;
        // As libcurl does (CURLOPT_TCP_NODELAY): a request never waits for an ACK.
        error_code ignored;
        current->link->socket.set_option(tcp::no_delay{true}, ignored);
        self->kept_ = current->link;
        self->send(current);
      });
}

void plain_http_session::send(const exchange_ptr& current) {
  current->stage = "sending the request";
  http::async_write(current->link->socket, current->message,
                    [self = shared_from_this(), current](error_code error, std::size_t) {
                      if (self->current_ != current) return;
                      if (!error) return self->receive(current);
                      if (self->may_retry(current, error)) return self->retry(current);
                      self->fail(current,
                                 "Send failure to " + current->where() + ": " + error.message());
                    });
}

// The header first, then the body. Beast 1.74's parser, handed a response's header and body
// in one buffer, clears the body_limit error its header check raised and reads on (the
// eager loop in basic_parser::put goes into the body with the error overwritten); so the
// declared length is checked here, between the two reads. Bodies without a length (chunked,
// read to the end) are held to body_limit by the parser itself.
void plain_http_session::receive(const exchange_ptr& current) {
  current->stage = "waiting for the answer";
  current->parser.emplace();
  current->parser->body_limit(current->request.max_response_bytes);
  if (equals_ignoring_case(current->request.method, "HEAD")) current->parser->skip(true);
  http::async_read_header(current->link->socket, current->link->buffer, *current->parser,
                          [self = shared_from_this(), current](error_code error, std::size_t) {
                            if (self->current_ != current) return;
                            if (error) return self->read_failed(current, error);
                            const auto declared = current->parser->content_length();
                            if (declared && *declared > current->request.max_response_bytes)
                              return self->read_failed(current, http::error::body_limit);
                            http::async_read(current->link->socket, current->link->buffer,
                                             *current->parser,
                                             [self, current](error_code error, std::size_t) {
                                               if (self->current_ != current) return;
                                               if (error) return self->read_failed(current, error);
                                               self->take_answer(current);
                                             });
                          });
}

void plain_http_session::read_failed(const exchange_ptr& current, const error_code& error) {
  if (may_retry(current, error)) return retry(current);
  const auto limit = current->request.max_response_bytes;
  fail(current,
       error == http::error::body_limit
           ? "the response body is larger than " + std::to_string(limit) + " bytes"
       : error == http::error::end_of_stream
           ? "Empty reply from server (" + current->where() + ")"
           : "the answer from " + current->where() + " could not be read: " + error.message());
}

void plain_http_session::take_answer(const exchange_ptr& current) {
  const auto& answer = current->parser->get();
  // Redirects are answers like any other: the asker reads the 3xx, nothing follows it.
  auto response = response_from(current->request.id, answer);
  if (!answer.keep_alive()) forget_connection();
  finish(current, std::move(response));
}

// A kept connection the server closed just as the request went out (its keep-alive timeout
// ran out in between; idle_and_open saw it still open) fails the request before any byte of
// the answer comes back: the server never read the request or dropped it unanswered.
// Sending it once more on a new connection is then safe for idempotent methods (the metadata
// service's GET and token PUT): even had the server acted on the first copy, acting twice
// has the effect of acting once. A POST is never resent.
bool plain_http_session::may_retry(const exchange_ptr& current, const error_code& error) const {
  const bool closed_unanswered =
      error == http::error::end_of_stream || error == boost::asio::error::eof ||
      error == boost::asio::error::connection_reset || error == boost::asio::error::broken_pipe;
  const bool nothing_read =
      current->link->buffer.size() == 0 && !(current->parser && current->parser->got_some());
  return current->reused && !current->retried && closed_unanswered && nothing_read &&
         is_idempotent(current->request.method);
}

void plain_http_session::retry(const exchange_ptr& current) {
  current->retried = true;
  forget_connection();
  open_connection(current);
}

void plain_http_session::fail(const exchange_ptr& current, std::string error, answer_when when) {
  if (current->link) {
    error_code ignored;
    current->link->socket.close(ignored);
    if (kept_ == current->link) kept_.reset();
  }
  finish(current, http_response{.id = current->request.id, .transport_error = std::move(error)},
         when);
}

void plain_http_session::finish(const exchange_ptr& current, http_response response,
                                answer_when when) {
  RUNWARDEN_ASSERT(current_ == current);
  current_.reset();
  deadline_.cancel();
  resolver_.cancel();
  auto done = std::move(current->done);
  if (when == answer_when::now) return done(std::move(response));
  boost::asio::post(context_,
                    [done = std::move(done), response = std::move(response)] { done(response); });
}

void plain_http_session::forget_connection() {
  if (!kept_) return;
  error_code ignored;
  kept_->socket.close(ignored);
  kept_.reset();
}

}  // namespace runwarden

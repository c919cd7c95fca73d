// See http_listener.hpp. Sessions hold only a weak pointer back to the listener: when the
// endpoints stop, the listener goes first and the sessions, destroyed with the io_context's
// pending handlers afterwards, find nobody to report to.
#include "src/control/http_listener.hpp"

#include <chrono>
#include <utility>

#include "src/control/http_session.hpp"
#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// After a failed accept (out of file descriptors, say) wait before trying again, instead of
// spinning on an error that will not clear at once.
constexpr std::chrono::milliseconds accept_retry_delay{100};

}  // namespace

http_listener::http_listener(boost::asio::ip::tcp::acceptor acceptor, metrics_registry& registry,
                             http_limits limits)
    : acceptor_(std::move(acceptor)),
      retry_timer_(acceptor_.get_executor()),
      registry_(registry),
      limits_(limits) {
  RUNWARDEN_ASSERT(limits_.connections_max > 0);
}

void http_listener::start() { accept_next(); }

void http_listener::accept_next() {
  RUNWARDEN_ASSERT(!accepting_);
  if (connections_ >= limits_.connections_max) return;  // on_session_closed resumes
  accepting_ = true;
  acceptor_.async_accept(
      [this](boost::system::error_code error, boost::asio::ip::tcp::socket socket) {
        on_accept(error, std::move(socket));
      });
}

void http_listener::on_accept(boost::system::error_code error,
                              boost::asio::ip::tcp::socket socket) {
  if (error == boost::asio::error::operation_aborted) return;
  if (error) {
    warden_logger()->warn("HTTP accept failed: {}; retrying", error.message());
    retry_timer_.expires_after(accept_retry_delay);
    retry_timer_.async_wait([this](boost::system::error_code waited) {
      if (waited == boost::asio::error::operation_aborted) return;
      accepting_ = false;
      accept_next();
    });
    return;
  }
  accepting_ = false;
  ++connections_;
  std::weak_ptr<http_listener> listener = weak_from_this();
  auto session = std::make_shared<http_session>(std::move(socket), limits_, registry_, [listener] {
    if (auto alive = listener.lock()) alive->on_session_closed();
  });
  session->start();
  accept_next();
}

void http_listener::on_session_closed() {
  RUNWARDEN_ASSERT(connections_ > 0);
  --connections_;
  if (!accepting_) accept_next();
}

}  // namespace runwarden

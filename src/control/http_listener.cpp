// See http_listener.hpp. Sessions hold only a weak pointer back to the listener: when the
// endpoints stop, the listener goes first and the sessions, destroyed with the io_context's
// pending handlers afterwards, find nobody to report to. The listener's own list holds
// weak pointers only, so it keeps no ended session alive.
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
  if (connections_ >= limits_.connections_max) {
    const auto longest = longest_waiting();
    if (!longest) return;  // on_session_closed or on_session_waiting resumes
    if (!evictable(*longest))
      return resume_at(*longest->waiting_since() + limits_.eviction_wait_min);
  }
  accepting_ = true;
  acceptor_.async_accept(
      [this](boost::system::error_code error, boost::asio::ip::tcp::socket socket) {
        on_accept(error, std::move(socket));
      });
}

void http_listener::resume_at(std::chrono::steady_clock::time_point when) {
  accepting_ = true;
  retry_timer_.expires_at(when);
  retry_timer_.async_wait([this](boost::system::error_code waited) {
    if (waited == boost::asio::error::operation_aborted) return;
    accepting_ = false;
    accept_next();
  });
}

void http_listener::on_accept(boost::system::error_code error,
                              boost::asio::ip::tcp::socket socket) {
  if (error == boost::asio::error::operation_aborted) return;
  if (error) {
    warden_logger()->warn("HTTP accept failed: {}; retrying", error.message());
    return resume_at(std::chrono::steady_clock::now() + accept_retry_delay);
  }
  // accepting_ stays set until the end, so that the hooks the eviction and the new
  // session's first read run do not start a second accept.
  const auto longest = connections_ >= limits_.connections_max ? longest_waiting() : nullptr;
  if (connections_ >= limits_.connections_max && !(longest && evictable(*longest))) {
    // The session that was to give way began answering since the accept started: the
    // newcomer is refused rather than the limit broken, and reconnects.
    boost::system::error_code ignored;
    socket.close(ignored);
  } else {
    if (longest) longest->evict();  // gives its slot back at once
    ++connections_;
    std::weak_ptr<http_listener> listener = weak_from_this();
    http_session_hooks hooks{[listener] {
                               if (auto alive = listener.lock()) alive->on_session_closed();
                             },
                             [listener] {
                               if (auto alive = listener.lock()) alive->on_session_waiting();
                             }};
    auto session =
        std::make_shared<http_session>(std::move(socket), limits_, registry_, std::move(hooks));
    sessions_.push_back(session);
    session->start();
  }
  RUNWARDEN_ASSERT(connections_ <= limits_.connections_max);
  accepting_ = false;
  accept_next();
}

void http_listener::on_session_closed() {
  RUNWARDEN_ASSERT(connections_ > 0);
  --connections_;
  prune_ended();
  if (!accepting_) accept_next();
}

void http_listener::on_session_waiting() {
  if (!accepting_) accept_next();
}

// The session that has waited longest for a request, or null when none waits.
std::shared_ptr<http_session> http_listener::longest_waiting() {
  prune_ended();
  std::shared_ptr<http_session> longest;
  for (const auto& session : sessions_) {
    auto alive = session.lock();
    if (!alive || !alive->waiting_since()) continue;
    if (!longest || *alive->waiting_since() < *longest->waiting_since()) longest = alive;
  }
  return longest;
}

bool http_listener::evictable(const http_session& session) const {
  const auto since = session.waiting_since();
  return since && std::chrono::steady_clock::now() - *since >= limits_.eviction_wait_min;
}

// A weak pointer from make_shared holds the ended session's memory, so each ended one is
// dropped at the next close or look for a session to evict: sessions_ stays within one of
// connections_max.
void http_listener::prune_ended() {
  std::erase_if(sessions_, [](const auto& session) { return session.expired(); });
}

}  // namespace runwarden

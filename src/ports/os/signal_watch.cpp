// See signal_watch.hpp.
#include "src/ports/os/signal_watch.hpp"

#include <pthread.h>

#include <array>
#include <boost/asio/post.hpp>
#include <csignal>

#include "messages/warden_messages.hpp"

namespace runwarden {

namespace {

constexpr std::array watched_signals{SIGTERM, SIGINT, SIGQUIT, SIGHUP};

}  // namespace

signal_watch::signal_watch(boost::asio::io_context& context) : signals_(std::in_place, context) {
  for (const int signal_number : watched_signals) signals_->add(signal_number);
}

// Blocked meanwhile, so that none arrives between asio's default action and SIG_IGN; one
// pending then is discarded by SIG_IGN. By now runwarden's other threads have ended.
signal_watch::~signal_watch() {
  sigset_t stops;
  sigset_t before;
  sigemptyset(&stops);
  for (const int signal_number : watched_signals) sigaddset(&stops, signal_number);
  pthread_sigmask(SIG_BLOCK, &stops, &before);
  signals_.reset();
  for (const int signal_number : watched_signals) std::signal(signal_number, SIG_IGN);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

void signal_watch::start(os_signal_listener_actor warden) {
  warden_ = std::move(warden);
  boost::asio::post(signals_->get_executor(), [self = shared_from_this()] { self->wait(); });
}

void signal_watch::stop() {
  boost::asio::post(signals_->get_executor(), [self = shared_from_this()] {
    boost::system::error_code ignored;
    self->signals_->cancel(ignored);
  });
}

void signal_watch::wait() {
  signals_->async_wait(
      [self = shared_from_this()](boost::system::error_code error, int signal_number) {
        if (error) return;
        caf::anon_send(self->warden_, os_signal_received{signal_number});
        self->wait();
      });
}

}  // namespace runwarden

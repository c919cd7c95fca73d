// See signal_watch.hpp.
#include "src/ports/os/signal_watch.hpp"

#include <boost/asio/post.hpp>
#include <csignal>

#include "messages/warden_messages.hpp"

namespace runwarden {

signal_watch::signal_watch(boost::asio::io_context& context)
    : signals_(context, SIGTERM, SIGINT, SIGQUIT) {
  signals_.add(SIGHUP);
}

void signal_watch::start(os_signal_listener_actor warden) {
  warden_ = std::move(warden);
  boost::asio::post(signals_.get_executor(), [self = shared_from_this()] { self->wait(); });
}

void signal_watch::stop() {
  boost::asio::post(signals_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ignored;
    self->signals_.cancel(ignored);
  });
}

void signal_watch::wait() {
  signals_.async_wait([self = shared_from_this()](boost::system::error_code error,
                                                  int signal_number) {
    if (error) return;
    caf::anon_send(self->warden_, os_signal_received{signal_number});
    self->wait();
  });
}

}  // namespace runwarden

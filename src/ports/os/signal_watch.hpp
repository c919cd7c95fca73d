#pragma once
// runwarden's own OS signals (SIGTERM, SIGINT, SIGQUIT, SIGHUP), caught on the io thread
// and handed to the warden as messages. What each one means is the warden's business.

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <memory>

#include "messages/warden_messages.hpp"

namespace runwarden {

class signal_watch : public std::enable_shared_from_this<signal_watch> {
public:
  explicit signal_watch(boost::asio::io_context& context);
  void start(os_signal_listener_actor warden);
  void stop();

private:
  void wait();
  boost::asio::signal_set signals_;
  os_signal_listener_actor warden_;
};

}  // namespace runwarden

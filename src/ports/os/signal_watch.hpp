#pragma once
// runwarden's own OS signals (SIGTERM, SIGINT, SIGQUIT, SIGHUP), caught on the io thread
// and handed to the warden as messages. What each one means is the warden's business.
// Once the watch goes (runwarden is ending), the four are ignored for the rest of the
// process's life: asio would give them their default action back, and one arriving in the
// last milliseconds of the exit would kill runwarden and replace its exit code (the
// runner's) with death by that signal (a `systemctl stop` racing a drain that just ended).

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <memory>
#include <optional>

#include "messages/warden_messages.hpp"

namespace runwarden {

class signal_watch : public std::enable_shared_from_this<signal_watch> {
 public:
  explicit signal_watch(boost::asio::io_context& context);
  signal_watch(const signal_watch&) = delete;
  signal_watch& operator=(const signal_watch&) = delete;
  ~signal_watch();
  void start(os_signal_listener_actor warden);
  void stop();

 private:
  void wait();
  std::optional<boost::asio::signal_set> signals_;  // reset only by the destructor
  os_signal_listener_actor warden_;
};

}  // namespace runwarden

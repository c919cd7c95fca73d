#pragma once
// The Watch streams a control server has open, so that stopping it can wait for them. A
// stream ends right after it wrote the final `gone`, but "written" means handed to gRPC's
// transport, not read by the client: a server that closes its connections at once can
// make a client fail its read ("Broken pipe") with the last status still in the socket.
// So stopping waits, bounded, until no stream is open and the last one ended a short
// linger ago; a server whose streams ended long ago (or that never had one) waits not at all.
//
// Each open stream is one of the warden's status subscribers, so their number is bounded
// here, before a stream takes anything: past watch_streams_max a Watch call is refused
// (RESOURCE_EXHAUSTED) and the warden's own actors keep the subscriptions they need.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>

#include "messages/warden_messages.hpp"

namespace runwarden {

inline constexpr std::size_t watch_streams_max = status_subscribers_max - internal_subscribers_max;
static_assert(watch_streams_max >= 1000, "the load test holds 1,000 Watch streams open");

class open_watches {
 public:
  // How long a client is given to read a stream's final status before the server closes.
  static constexpr std::chrono::milliseconds close_linger{200};

  // False, and nothing counted, when watch_streams_max streams are open already.
  bool try_open();
  void closed();

  // Waits until no stream is open and the last one closed at least close_linger ago, or
  // until timeout passed; true in the first case.
  bool wait_settled(std::chrono::milliseconds timeout);

 private:
  using clock = std::chrono::steady_clock;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t open_ = 0;  // at most watch_streams_max
  std::optional<clock::time_point> last_closed_;
};

}  // namespace runwarden

#pragma once
// Between an embedded instance's warden and its host: subscribed to the warden, it turns each
// snapshot into the public embedded::status, hands it to the host's subscribed actors, and
// calls the shutdown requests' on_gone callbacks once the status is gone. The first status
// at gone is the last it hands on: a host hears gone once. It is also the
// warden's exit listener, so the warden's own protocol never reaches the host.

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"
#include "runwarden/status.hpp"
#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

// Host actors and callbacks a relay keeps at once; past them a subscription is dropped with
// a log line (a host subscribes a few actors, not one per request).
inline constexpr std::size_t host_listeners_max = 64;

// (host_relay: once gone) calls `callback` with the status at gone.
struct gone_callback {
  std::function<void(const embedded::status&)> callback;
};

struct host_relay_state {
  static inline const char* name = "host_relay";
  std::vector<caf::actor> listeners;        // at most host_listeners_max
  std::vector<gone_callback> callbacks;     // at most host_listeners_max
  std::optional<embedded::status> last;     // stays at the first status at gone
  std::shared_ptr<std::atomic<bool>> gone;  // set at gone, for the handle to read
};

// What the relay receives: from the warden, its status (subscribed to) and, as its exit
// listener, warden_exited; from the public handle, (caf::subscribe_atom, caf::actor) for a
// host's actor and gone_callback. `on_exit` runs at warden_exited, as runwarden run retires
// its journal then. `gone` turns true once the status is gone.
using host_relay_actor = status_subscriber_actor::extend_with<warden_exit_listener_actor>::extend<
    caf::reacts_to<caf::subscribe_atom, caf::actor>, caf::reacts_to<gone_callback>>;

host_relay_actor::behavior_type host_relay(
    host_relay_actor::stateful_pointer<host_relay_state> self, std::function<void()> on_exit,
    std::shared_ptr<std::atomic<bool>> gone);

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::gone_callback)

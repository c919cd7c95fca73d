#pragma once
// The notifier: tells the configured webhook when a drain starts, when runwarden is gone and
// when a failure needs a person (notification_kind), and at gone each shutdown callback an
// API caller left. The webhook's body is the operator's template for the event, if any. It never
// blocks, and tells the warden nothing but that a notification is settled (so that a restarted
// notifier is sent what its crashed predecessor left open): a slow or failing receiver can neither
// hold up nor undo a drain. Each delivery goes
//
//   lookup (names only) -> check addresses -> request -> 2xx: delivered
//                                                     -> retryable: wait, start over
//                                                     -> refused or budget spent: given up
//
// through the HTTP port; waits are delayed_send to itself, so virtual time drives them in
// tests. Decisions (what to send, whether to retry, how long to wait) are pure functions in
// src/webhook/; this actor only carries them out, logs, and tells the observer.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/notifier_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/config/settings.hpp"
#include "src/drain/drain_machine.hpp"
#include "src/webhook/delivery_retry.hpp"
#include "src/webhook/notification_values.hpp"
#include "src/webhook/webhook_target.hpp"

namespace runwarden {

// The webhook for each event plus every callback at gone, with room to spare.
inline constexpr std::size_t pending_deliveries_max = 32;
static_assert(pending_deliveries_max >= 2 + shutdown_callbacks_max);
// Callers waiting in flush at once (the exit path, a test); more are refused.
inline constexpr std::size_t flush_waiters_max = 8;

using wall_clock = std::function<std::chrono::system_clock::time_point()>;

// The notifier as it runs: its peers' interface (notifier_actor), the answers of its HTTP port,
// and (delivery_retry_atom, delivery id), which it sends itself to retry a delivery later.
using notifier_implementation =
    notifier_actor::extend<caf::reacts_to<host_lookup_result>, caf::reacts_to<http_response>,
                           caf::reacts_to<delivery_retry_atom, std::uint64_t>>;

struct notifier_wiring {
  http_port_actor http_port;
  std::optional<webhook_target> webhook;  // nullopt: callbacks only
  std::string secret;                     // empty: the webhook is not signed
  bool allow_link_local = false;
  std::chrono::milliseconds timeout{0};  // per lookup and per request
  delivery_limits limits;
  std::uint64_t random_seed = 0;
  delivery_observer observer = {};
  wall_clock clock = [] { return std::chrono::system_clock::now(); };
  std::string version;
  // The webhook's body per event, as a Mustache template checked at config load; an event
  // without one gets the default JSON body.
  std::map<notification_kind, std::string> templates = {};
  http_header_list headers = {};  // the operator's, for the webhook only
  bool environment_proxy = false;
  runner_identity runner = {};
};

struct delivery {
  notification_kind kind = notification_kind::drain_started;
  webhook_target target;
  std::string method;
  http_header_list headers;
  std::string body;
  bool is_callback = false;
  std::uint32_t attempts = 0;      // requests sent
  std::uint64_t waiting_for = 0;   // id of the lookup or request in flight; 0 when none
  std::uint64_t notification = 0;  // the notify it belongs to
};

// A notify with deliveries still open, and who to tell once none is.
struct open_notification {
  notification_settled settled;
  notification_requester_actor requester;  // may be invalid: nobody to tell
  std::size_t deliveries_open = 0;
};

struct notifier_state {
  static inline const char* name = "notifier";
  notifier_wiring wiring;
  std::uint64_t random_state = 0;
  std::uint64_t next_id = 1;
  std::map<std::uint64_t, delivery> deliveries;              // at most pending_deliveries_max
  std::map<std::uint64_t, open_notification> notifications;  // each with a delivery open
  // At most flush_waiters_max.
  std::vector<caf::typed_response_promise<caf::ok_atom>> flush_waiters;
};

notifier_implementation::behavior_type notifier_behavior(
    notifier_implementation::stateful_pointer<notifier_state> self, notifier_wiring wiring);

}  // namespace runwarden

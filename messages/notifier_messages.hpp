#pragma once
// The notifier's vocabulary, beside the (notify_atom, ...) message the warden sends it
// (warden_messages.hpp). The notifier is an untyped actor because the warden holds it as a
// plain caf::actor; its interface is:
//   (notify_atom, notification_kind, std::vector<shutdown_callback>, warden_snapshot)
//                 queues the webhook POST and, at gone, the callbacks; never blocks
//   (flush_atom)  -> ok_atom once no delivery is pending (each delivered or its budget
//                 spent); the caller bounds its wait with a request timeout
// and internally (delivery_retry_atom, delivery id), which it sends itself to retry later.
// Once every delivery of one notify is settled (delivered, or given up), the notifier sends
// notification_settled to the actor that sent the notify, if any: until then the warden
// keeps the notification, to send it again to a notifier restarted by its supervisor
// (under the child id notifier_child_id).

#include <cstdint>
#include <functional>
#include <string_view>

#include "caf/all.hpp"
#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

using flush_atom = caf::atom_constant<caf::atom("flush")>;
using delivery_retry_atom = caf::atom_constant<caf::atom("dretry")>;

inline constexpr std::string_view notifier_child_id = "notifier";

// version is the version of the snapshot the notify carried.
struct notification_settled {
  notification_kind kind = notification_kind::drain_started;
  std::uint64_t version = 0;
};

// Told the outcome of every delivery, once, on the notifier's thread (for metrics).
// `attempts` counts the requests sent; 0 means the target was refused before any.
using delivery_observer =
    std::function<void(notification_kind kind, bool delivered, unsigned attempts)>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::notification_settled)

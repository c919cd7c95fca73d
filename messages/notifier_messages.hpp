#pragma once
// The notifier's vocabulary and its typed interface (notifier_actor). The notifier tells the
// webhook and the shutdown callbacks what the warden reports; once every delivery of one
// notify is settled (delivered, or given up) it sends notification_settled to the actor that
// sent the notify, if any: until then the warden keeps the notification, to send it again to
// a notifier restarted by its supervisor (under the child id child_id::notifier).

#include <cstdint>
#include <functional>
#include <vector>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "src/drain/drain_vocabulary.hpp"
#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

using notify_atom = caf::atom_constant<caf::atom("notify")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
using delivery_retry_atom = caf::atom_constant<caf::atom("dretry")>;

// version is the version of the snapshot the notify carried.
struct notification_settled {
  notification_kind kind = notification_kind::drain_started;
  std::uint64_t version = 0;
};

// Told the outcome of every delivery, once, on the notifier's thread (for metrics).
// `attempts` counts the requests sent; 0 means the target was refused before any.
using delivery_observer =
    std::function<void(notification_kind kind, bool delivered, unsigned attempts)>;

// Whoever sent a notify (the warden): told once every delivery of it is settled.
using notification_requester_actor = caf::typed_actor<caf::reacts_to<notification_settled>>;

// What the notifier's peers may send it:
//   (notify_atom, notification_kind, std::vector<shutdown_callback>, warden_snapshot)
//                 from the warden: queues the webhook POST and, at gone, the callbacks;
//                 never blocks
//   (flush_atom)  -> ok_atom once no delivery is pending (each delivered or its budget
//                 spent); the caller bounds its wait with a request timeout
using notifier_actor = caf::typed_actor<
    caf::reacts_to<notify_atom, notification_kind, std::vector<shutdown_callback>, warden_snapshot>,
    caf::replies_to<flush_atom>::with<caf::ok_atom>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::notification_settled)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::warden_snapshot)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::notification_kind)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(std::vector<runwarden::shutdown_callback>)

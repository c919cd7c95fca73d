#pragma once
// The notifier's vocabulary, beside the (notify_atom, ...) message the warden sends it
// (warden_messages.hpp). The notifier is an untyped actor because the warden holds it as a
// plain caf::actor; its interface is:
//   (notify_atom, notification_kind, std::vector<shutdown_callback>, warden_snapshot)
//                 queues the webhook POST and, at gone, the callbacks; never blocks
//   (flush_atom)  -> ok_atom once no delivery is pending (each delivered or its budget
//                 spent); the caller bounds its wait with a request timeout
// and internally (delivery_retry_atom, delivery id), which it sends itself to retry later.

#include <functional>

#include "caf/all.hpp"
#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

using flush_atom = caf::atom_constant<caf::atom("flush")>;
using delivery_retry_atom = caf::atom_constant<caf::atom("dretry")>;

// Told the outcome of every delivery, once, on the notifier's thread (for metrics).
// `attempts` counts the requests sent; 0 means the target was refused before any.
using delivery_observer =
    std::function<void(notification_kind kind, bool delivered, unsigned attempts)>;

}  // namespace runwarden

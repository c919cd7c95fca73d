#pragma once
// The service manager actor's typed interfaces (actors/service_manager): it follows the
// warden's status to tell systemd what runwarden is doing, and asks the warden for a fresh
// snapshot to prove, by the answer, that the warden's loop still runs (WATCHDOG=1).

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"

namespace runwarden {

using listening_atom = caf::atom_constant<caf::atom("listening")>;

// What its peers may send it:
//   (listening_atom)   the control API listens; READY=1 may go once the runner is up
//   warden_snapshot    from the warden, on every change (and refused_atom, past its limit)
using service_manager_actor = status_subscriber_actor::extend<caf::reacts_to<listening_atom>>;

// The warden as the service manager sees it: it subscribes, and asks for a snapshot.
using service_manager_listener_actor =
    status_source_actor::extend<caf::replies_to<caf::get_atom>::with<warden_snapshot>>;

}  // namespace runwarden

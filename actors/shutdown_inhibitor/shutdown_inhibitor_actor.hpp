#pragma once
// The shutdown inhibitor: while the runner has jobs, holds a logind delay lock for shutdown
// (src/ports/os/logind_inhibitor.hpp), so that a shutdown the operating system starts waits
// for the jobs, up to logind's InhibitDelayMaxSec, as the kubelet's graceful node shutdown
// does. Thin: it follows the warden's snapshots, lets shutdown_inhibit.hpp decide, and
// takes or releases the lock through its port. Where there is no logind (a container, the
// static binary) the first take says so once, and it does nothing more.
//
// Its port blocks (a D-Bus call, bounded by inhibit_call_timeout_max), so the daemon spawns
// it detached, on a thread of its own, and no other actor waits for the bus.

#include <functional>
#include <optional>

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"
#include "src/ports/os/logind_inhibitor.hpp"
#include "src/telemetry/shutdown_inhibit.hpp"

namespace runwarden {

struct shutdown_inhibitor_wiring {
  status_source_actor warden;  // subscribed to for warden_snapshot
  // The port: take returns why it failed (nullopt: held); release closes the lock.
  std::function<std::optional<inhibit_failure>()> take;
  std::function<void()> release;
};

struct shutdown_inhibitor_state {
  static inline const char* name = "shutdown_inhibitor";
  shutdown_inhibitor_wiring wiring;
  shutdown_inhibit_state machine;
  bool no_logind = false;  // said once; nothing is taken any more
  bool taken = false;      // the port holds the lock
};

status_subscriber_actor::behavior_type shutdown_inhibitor_behavior(
    status_subscriber_actor::stateful_pointer<shutdown_inhibitor_state> self,
    shutdown_inhibitor_wiring wiring);

}  // namespace runwarden

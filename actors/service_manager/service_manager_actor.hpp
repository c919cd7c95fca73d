#pragma once
// Tells the service manager (systemd) what the warden is doing: subscribes to the warden's
// snapshots, lets service_notices decide the lines, and hands them to the send port. It
// also asks the warden for a fresh snapshot every few minutes (every half watchdog interval
// when WatchdogSec= is set) and sends WATCHDOG=1 only when the warden answered, so the ping
// comes from the warden's own loop: a wedged warden stops the pings and systemd restarts
// runwarden, whose journal carries the drain on.
//
//   (listening_atom)   the control API listens; READY=1 may go once the runner is up
//   warden_snapshot    from the warden, on every change

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"
#include "src/telemetry/service_notices.hpp"

namespace runwarden {

using listening_atom = caf::atom_constant<caf::atom("listening")>;

struct service_manager_wiring {
  caf::actor warden;
  service_notice_facts facts;
  std::optional<std::chrono::microseconds> watchdog_interval;
  std::function<void(const std::vector<std::string>&)> send;
  std::function<std::chrono::system_clock::time_point()> wall_clock;
};

caf::behavior service_manager_actor(caf::event_based_actor* self,
                                    service_manager_wiring wiring);

}  // namespace runwarden

#pragma once
// Tells the service manager (systemd) what the warden is doing: subscribes to the warden's
// snapshots, lets service_notices decide the lines, and hands them to the send port. It
// also asks the warden for a fresh snapshot every few minutes (every half watchdog interval
// when WatchdogSec= is set) and sends WATCHDOG=1 only when the warden answered, so the ping
// comes from the warden's own loop: a wedged warden stops the pings and systemd restarts
// runwarden, whose journal carries the drain on. Its interface: service_manager_messages.hpp.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "messages/service_manager_messages.hpp"
#include "src/telemetry/service_notices.hpp"

namespace runwarden {

struct service_manager_wiring {
  service_manager_listener_actor warden;
  service_notice_facts facts;
  std::optional<std::chrono::microseconds> watchdog_interval;
  std::function<void(const std::vector<std::string>&)> send;
  std::function<std::chrono::system_clock::time_point()> wall_clock;
};

// The service manager as it runs: besides, (refresh_atom) when asking the warden is due.
using refresh_atom = caf::atom_constant<caf::atom("refresh")>;
using service_manager_implementation = service_manager_actor::extend<caf::reacts_to<refresh_atom>>;

service_manager_implementation::behavior_type service_manager_behavior(
    service_manager_implementation::pointer self, service_manager_wiring wiring);

}  // namespace runwarden

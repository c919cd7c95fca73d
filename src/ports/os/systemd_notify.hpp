#pragma once
// The service manager's notification socket (sd_notify(3), libsystemd): the port through
// which runwarden tells systemd it is ready, what it is doing and that it is alive. Only
// exists when systemd started runwarden with NOTIFY_SOCKET set (Type=notify); otherwise
// nothing is spawned and nothing is sent.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace runwarden {

class keeper_link;

class systemd_notify {
 public:
  // The socket systemd named in NOTIFY_SOCKET, or nullopt outside systemd.
  static std::optional<systemd_notify> from_environment();
  // Under a keeper, the service's main process: the lines go to it, which hands them on to
  // systemd, and WATCHDOG=1 proves to the keeper that this warden can act (keeper.hpp).
  static systemd_notify through_keeper(std::shared_ptr<keeper_link> keeper);

  // The unit's WatchdogSec= as systemd passed it (WATCHDOG_USEC for this process), if set.
  std::optional<std::chrono::microseconds> watchdog_interval() const { return watchdog_interval_; }

  // True when the lines go to the keeper rather than straight to systemd.
  bool through_keeper() const { return keeper_ != nullptr; }

  // Sends the lines as one datagram ("READY=1\nSTATUS=running"). A failure is returned as
  // text for the log; systemd going away is no reason to stop supervising.
  std::optional<std::string> send(const std::vector<std::string>& lines) const;

 private:
  systemd_notify(std::optional<std::chrono::microseconds> watchdog_interval,
                 std::shared_ptr<keeper_link> keeper)
      : watchdog_interval_(watchdog_interval), keeper_(std::move(keeper)) {}
  std::optional<std::chrono::microseconds> watchdog_interval_;
  std::shared_ptr<keeper_link> keeper_;  // null: straight to systemd
};

}  // namespace runwarden

#pragma once
// A logind delay inhibitor lock for shutdown, as `systemd-inhibit --what=shutdown
// --mode=delay` takes one: org.freedesktop.login1.Manager.Inhibit on the system bus
// (logind's D-Bus API, org.freedesktop.login1(5)) returns a file descriptor, and the lock
// holds until every copy of it is closed. So releasing is closing it, and a warden that
// dies releases it with its descriptors, which is what a lock for a dead warden should do.
//
// The call is made through libsystemd's sd-bus in the Debian package. The static binary
// links no libsystemd (Debian ships no libsystemd.a, notify_datagram.hpp) and takes no lock:
// take() says so. The system bus is DBUS_SYSTEM_BUS_ADDRESS when set (the tests' private
// bus), else /run/dbus/system_bus_socket. Each take() opens its own connection and closes it
// once it has the descriptor: the lock needs no connection, only the descriptor. Blocking:
// at most call_timeout_max per call, so a wedged bus delays only the actor that asked.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

// How long one Inhibit call may take before it counts as failed.
inline constexpr std::chrono::seconds inhibit_call_timeout_max{5};

// Why a take failed. `no_logind`: no system bus, or nobody owns org.freedesktop.login1 there
// (a container, a machine without systemd, this build): expected, said once.
struct inhibit_failure {
  bool no_logind = false;
  std::string text;
};

class logind_inhibitor {
 public:
  logind_inhibitor() = default;
  logind_inhibitor(const logind_inhibitor&) = delete;
  logind_inhibitor& operator=(const logind_inhibitor&) = delete;
  ~logind_inhibitor() { release(); }

  // Takes the lock (a second take while held changes nothing); nullopt when held.
  // `why` is what `systemd-inhibit --list` shows beside runwarden's name.
  std::optional<inhibit_failure> take(std::string_view why);
  void release();
  bool held() const { return descriptor_ >= 0; }

  // False in the static binary, which has no sd-bus.
  static bool supported();

 private:
  int descriptor_ = -1;
};

}  // namespace runwarden

// See keeper_timing.hpp.
#include "src/keeper/keeper_timing.hpp"

#include "src/ports/os/service_manager.hpp"

#include <algorithm>

namespace runwarden {

keeper_timing::keeper_timing() {
  std::uint64_t usec = 0;
  // WatchdogSec= of the unit, for this process (libsystemd checks WATCHDOG_PID).
  if (service_manager_watchdog_enabled(&usec) > 0 && usec > 0) {
    systemd_interval_ = std::chrono::microseconds(usec);
    warden_interval_ = std::max<std::chrono::microseconds>(systemd_interval_, warden_interval_min);
    next_systemd_ping_ = clock::now();
  }
}

keeper_timing::clock::time_point keeper_timing::next_systemd_ping(clock::time_point) const {
  if (systemd_interval_.count() == 0) return clock::time_point::max();
  return next_systemd_ping_;
}

bool keeper_timing::systemd_ping_due(clock::time_point now) {
  if (systemd_interval_.count() == 0 || now < next_systemd_ping_) return false;
  next_systemd_ping_ = now + systemd_interval_ / 2;
  return true;
}

std::chrono::milliseconds keeper_timing::restart_delay() {
  const int doublings = std::min(failed_starts_, 20);
  ++failed_starts_;
  const auto delay = first_restart_delay * (1LL << doublings);
  return std::min<std::chrono::milliseconds>(delay, restart_delay_max);
}

}  // namespace runwarden

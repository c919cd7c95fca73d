// See systemd_notify.hpp. service_manager.hpp (libsystemd, or its protocol spoken by
// notify_datagram in the static binary) reads NOTIFY_SOCKET and WATCHDOG_USEC itself (and
// checks WATCHDOG_PID against this process), so a child that inherited them is not fooled.
#include "src/ports/os/systemd_notify.hpp"

#include "src/ports/os/keeper_link.hpp"
#include "src/ports/os/service_manager.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace runwarden {

std::optional<systemd_notify> systemd_notify::from_environment() {
  const char* socket = std::getenv("NOTIFY_SOCKET");
  if (socket == nullptr || *socket == '\0') return std::nullopt;
  std::uint64_t usec = 0;
  std::optional<std::chrono::microseconds> watchdog;
  if (service_manager_watchdog_enabled(&usec) > 0 && usec > 0) {
    watchdog = std::chrono::microseconds(usec);
  }
  return systemd_notify{watchdog, nullptr};
}

systemd_notify systemd_notify::through_keeper(std::shared_ptr<keeper_link> keeper) {
  const auto interval = keeper->watchdog_interval();
  return systemd_notify{interval.count() > 0 ? std::optional{interval} : std::nullopt,
                        std::move(keeper)};
}

std::optional<std::string> systemd_notify::send(const std::vector<std::string>& lines) const {
  if (lines.empty()) return std::nullopt;
  std::string datagram;
  for (const auto& line : lines) {
    if (!datagram.empty()) datagram += '\n';
    datagram += line;
  }
  if (keeper_) {
    keeper_->notify(std::move(datagram));
    return std::nullopt;
  }
  const int result = service_manager_notify(datagram.c_str());
  if (result < 0) return std::string{"sd_notify failed: "} + std::strerror(-result);
  return std::nullopt;
}

}  // namespace runwarden

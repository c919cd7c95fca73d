// See service_manager.hpp. RUNWARDEN_STATIC comes from CMakeLists.txt's static variant.
#include "src/ports/os/service_manager.hpp"

#if RUNWARDEN_STATIC
#include "src/ports/os/notify_datagram.hpp"
#else
#include <systemd/sd-daemon.h>
#endif

namespace runwarden {

#if RUNWARDEN_STATIC
int service_manager_notify(const char* state) { return notify_datagram::notify(state); }
int service_manager_watchdog_enabled(std::uint64_t* usec) {
  return notify_datagram::watchdog_enabled(usec);
}
#else
int service_manager_notify(const char* state) { return sd_notify(0, state); }
int service_manager_watchdog_enabled(std::uint64_t* usec) { return sd_watchdog_enabled(0, usec); }
#endif

}  // namespace runwarden

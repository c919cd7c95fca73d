#pragma once
// The two calls runwarden makes of systemd's sd-daemon API, sd_notify(0, ...) and
// sd_watchdog_enabled(0, ...), in one place: libsystemd in the Debian package (as Debian
// wants), runwarden's own notify_datagram in the static binary, which cannot link
// libsystemd. Same arguments and results as libsystemd's.

#include <cstdint>

namespace runwarden {

int service_manager_notify(const char* state);
int service_manager_watchdog_enabled(std::uint64_t* usec);

}  // namespace runwarden

#pragma once
// sd_notify(3)'s protocol spoken without libsystemd, for the static binary, which
// cannot link libsystemd (Debian ships no libsystemd.a). systemd documents the protocol as a
// stable interface for independent implementations (man sd_notify, "NOTES"; systemd's
// docs/PORTABILITY_AND_STABILITY.md): one AF_UNIX datagram holding the state lines, sent to
// the socket NOTIFY_SOCKET names, a path or, with a leading "@", an abstract-namespace name.
// The sender's credentials go with it because systemd's socket sets SO_PASSCRED, which makes
// the kernel attach them. sd_watchdog_enabled(3) reads WATCHDOG_USEC, for this process only
// when WATCHDOG_PID names another. Results are libsystemd's: > 0 done, 0 not under systemd,
// < 0 a negated errno.

#include <cstdint>
#include <string_view>

namespace runwarden::notify_datagram {

// The longest state systemd reads in one datagram (its NOTIFY_BUFFER_MAX, PIPE_BUF).
inline constexpr std::size_t state_bytes_max = 4096;

// Sends `state` to the socket `address` names (NOTIFY_SOCKET's syntax). An empty address
// means "not under systemd" and returns 0.
int send(std::string_view address, std::string_view state);

// sd_notify(0, state): sends to NOTIFY_SOCKET's socket, 0 when it is unset.
int notify(std::string_view state);

// sd_watchdog_enabled(0, usec) over the given environment values (nullptr when unset), and
// over this process's environment.
int watchdog_enabled(const char* watchdog_usec, const char* watchdog_pid, std::uint64_t* usec);
int watchdog_enabled(std::uint64_t* usec);

}  // namespace runwarden::notify_datagram

// See notify_datagram.hpp. Checked against libsystemd 252's sd_notify and
// sd_watchdog_enabled (src/libsystemd/sd-daemon/sd-daemon.c): the same address rules (an
// abstract name's length leaves the trailing NUL out, a path's keeps it), MSG_NOSIGNAL, and
// WATCHDOG_USEC refused when it is not a positive decimal number.
#include "src/ports/os/notify_datagram.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace runwarden::notify_datagram {
namespace {

// A descriptor closed on every path out.
struct socket_descriptor {
  int value = -1;
  ~socket_descriptor() {
    if (value >= 0) ::close(value);
  }
};

template <typename Number>
bool parse_decimal(const char* text, Number& out) {
  const char* end = text + std::strlen(text);
  const auto [last, error] = std::from_chars(text, end, out);
  return error == std::errc{} && last == end && last != text;
}

}  // namespace

int send(std::string_view address, std::string_view state) {
  if (address.empty()) return 0;
  if (state.empty() || state.size() > state_bytes_max) return -EINVAL;
  sockaddr_un socket_address{};
  socket_address.sun_family = AF_UNIX;
  // A path needs its NUL inside sun_path; an abstract name has none and may fill it.
  const bool abstract = address.front() == '@';
  if (!abstract && address.front() != '/') return -EAFNOSUPPORT;
  if (address.size() > sizeof(socket_address.sun_path) - (abstract ? 0 : 1)) return -EINVAL;
  std::memcpy(socket_address.sun_path, address.data(), address.size());
  if (abstract) socket_address.sun_path[0] = '\0';
  const auto length =
      static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + address.size() + (abstract ? 0 : 1));

  socket_descriptor descriptor{::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)};
  if (descriptor.value < 0) return -errno;
  const ssize_t sent = ::sendto(descriptor.value, state.data(), state.size(), MSG_NOSIGNAL,
                                reinterpret_cast<const sockaddr*>(&socket_address), length);
  if (sent < 0) return -errno;
  if (static_cast<std::size_t>(sent) != state.size()) return -EMSGSIZE;
  return 1;
}

int notify(std::string_view state) {
  const char* address = std::getenv("NOTIFY_SOCKET");
  return send(address == nullptr ? std::string_view{} : std::string_view{address}, state);
}

int watchdog_enabled(const char* watchdog_usec, const char* watchdog_pid, std::uint64_t* usec) {
  if (watchdog_usec == nullptr) return 0;
  std::uint64_t interval = 0;
  if (!parse_decimal(watchdog_usec, interval) || interval == 0) return -EINVAL;
  if (watchdog_pid != nullptr) {
    pid_t pid = 0;
    if (!parse_decimal(watchdog_pid, pid) || pid <= 0) return -EINVAL;
    // Meant for another process (this one's parent, say): not this one's watchdog.
    if (pid != ::getpid()) return 0;
  }
  if (usec != nullptr) *usec = interval;
  return 1;
}

int watchdog_enabled(std::uint64_t* usec) {
  return watchdog_enabled(std::getenv("WATCHDOG_USEC"), std::getenv("WATCHDOG_PID"), usec);
}

}  // namespace runwarden::notify_datagram

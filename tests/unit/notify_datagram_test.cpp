// The static binary's sd_notify (src/ports/os/notify_datagram) against a real AF_UNIX
// datagram socket, bound as systemd binds its notification socket (SO_PASSCRED on), at a
// path and at an abstract "@" name: the datagram must arrive whole, with this process's
// credentials attached by the kernel, and every address libsystemd refuses is refused too.
// WATCHDOG_USEC and WATCHDOG_PID are parsed as sd_watchdog_enabled(3) parses them.

#include "src/ports/os/notify_datagram.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>

namespace {

namespace notify = runwarden::notify_datagram;

// A bound receiving socket, as the service manager holds one.
class notify_listener {
 public:
  // `name` is NOTIFY_SOCKET's syntax: a path, or "@name" for the abstract namespace.
  explicit notify_listener(const std::string& name) {
    descriptor_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    REQUIRE(descriptor_ >= 0);
    const int on = 1;
    REQUIRE(::setsockopt(descriptor_, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) == 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    REQUIRE(name.size() < sizeof address.sun_path);
    std::memcpy(address.sun_path, name.data(), name.size());
    const bool abstract = name.front() == '@';
    if (abstract) address.sun_path[0] = '\0';
    const auto length =
        static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size() + (abstract ? 0 : 1));
    REQUIRE(::bind(descriptor_, reinterpret_cast<sockaddr*>(&address), length) == 0);
  }
  ~notify_listener() { ::close(descriptor_); }
  notify_listener(const notify_listener&) = delete;
  notify_listener& operator=(const notify_listener&) = delete;

  // The next datagram (waits), and the pid the kernel attached to it.
  std::string receive(pid_t& sender) {
    char payload[notify::state_bytes_max + 1];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(ucred))];
    iovec vector{payload, sizeof payload};
    msghdr message{};
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    const ssize_t length = ::recvmsg(descriptor_, &message, 0);
    REQUIRE(length >= 0);
    sender = 0;
    for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
         header = CMSG_NXTHDR(&message, header)) {
      if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_CREDENTIALS) {
        ucred credentials{};
        std::memcpy(&credentials, CMSG_DATA(header), sizeof credentials);
        sender = credentials.pid;
      }
    }
    return std::string(payload, static_cast<std::size_t>(length));
  }

 private:
  int descriptor_ = -1;
};

std::string unique_name() { return "runwarden-notify-test-" + std::to_string(::getpid()); }

}  // namespace

TEST_CASE("notify_datagram delivers the state to a path socket with this process's credentials",
          "[systemd]") {
  const auto directory = std::filesystem::temp_directory_path() / unique_name();
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  const std::string path = (directory / "notify").string();
  {
    notify_listener listener{path};
    CHECK(notify::send(path, "READY=1\nSTATUS=running") > 0);
    pid_t sender = 0;
    CHECK(listener.receive(sender) == "READY=1\nSTATUS=running");
    CHECK(sender == ::getpid());
  }
  std::filesystem::remove_all(directory);
}

TEST_CASE("notify_datagram sends to an abstract socket named with a leading @", "[systemd]") {
  const std::string name = "@" + unique_name();
  notify_listener listener{name};
  CHECK(notify::send(name, "WATCHDOG=1") > 0);
  pid_t sender = 0;
  CHECK(listener.receive(sender) == "WATCHDOG=1");
  CHECK(sender == ::getpid());
}

TEST_CASE("notify_datagram takes the largest state systemd reads, in one datagram", "[systemd]") {
  const std::string name = "@" + unique_name() + "-large";
  notify_listener listener{name};
  const std::string state = "STATUS=" + std::string(notify::state_bytes_max - 7, 'x');
  CHECK(notify::send(name, state) > 0);
  pid_t sender = 0;
  CHECK(listener.receive(sender) == state);
  CHECK(notify::send(name, state + "x") == -EINVAL);
}

TEST_CASE("notify_datagram refuses what libsystemd refuses", "[systemd]") {
  CHECK(notify::send("", "READY=1") == 0);  // not under systemd
  CHECK(notify::send("relative/notify", "READY=1") == -EAFNOSUPPORT);
  CHECK(notify::send("/" + std::string(200, 'a'), "READY=1") == -EINVAL);
  CHECK(notify::send("@x", "") == -EINVAL);
  // Nobody listening: the error is the socket's, not a crash or a signal.
  CHECK(notify::send("/nonexistent-runwarden-dir/notify", "READY=1") == -ENOENT);
  CHECK(notify::send("@" + unique_name() + "-nobody", "READY=1") == -ECONNREFUSED);
}

TEST_CASE("notify_datagram reads WATCHDOG_USEC for this process only", "[systemd]") {
  std::uint64_t usec = 7;
  CHECK(notify::watchdog_enabled(nullptr, nullptr, &usec) == 0);
  CHECK(notify::watchdog_enabled("30000000", nullptr, &usec) == 1);
  CHECK(usec == 30000000);
  const std::string self = std::to_string(::getpid());
  CHECK(notify::watchdog_enabled("5000000", self.c_str(), &usec) == 1);
  CHECK(usec == 5000000);
  usec = 7;
  const std::string other = std::to_string(::getpid() + 1);
  CHECK(notify::watchdog_enabled("5000000", other.c_str(), &usec) == 0);
  CHECK(usec == 7);
  CHECK(notify::watchdog_enabled("0", nullptr, &usec) == -EINVAL);
  CHECK(notify::watchdog_enabled("12s", nullptr, &usec) == -EINVAL);
  CHECK(notify::watchdog_enabled("", nullptr, &usec) == -EINVAL);
  CHECK(notify::watchdog_enabled("5000000", "x", &usec) == -EINVAL);
}

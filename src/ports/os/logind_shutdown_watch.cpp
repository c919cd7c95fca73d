// See logind_shutdown_watch.hpp. Checked against logind's D-Bus API (org.freedesktop.login1(5):
// the signal PrepareForShutdown(b start) of org.freedesktop.login1.Manager) and sd-bus's
// event-loop integration rules (sd_bus_get_fd(3), sd_bus_get_events(3),
// sd_bus_get_timeout(3): an absolute CLOCK_MONOTONIC time, UINT64_MAX for none).
#include "src/ports/os/logind_shutdown_watch.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#if !RUNWARDEN_STATIC
#include <systemd/sd-bus.h>
#endif

namespace runwarden {

#if RUNWARDEN_STATIC

std::optional<std::string> logind_shutdown_watch::start(prepare_callback) {
  return "this static build has no sd-bus";
}

void logind_shutdown_watch::stop() {}

void logind_shutdown_watch::run() {}

#else

namespace {

int on_prepare(sd_bus_message* message, void* userdata, sd_bus_error*) {
  int starting = 0;
  if (sd_bus_message_read(message, "b", &starting) < 0) return 0;
  const auto& callback = *static_cast<logind_shutdown_watch::prepare_callback*>(userdata);
  callback(starting != 0);
  return 0;
}

// poll(2)'s timeout for sd-bus's next deadline: -1 for none.
int poll_timeout_ms(sd_bus* bus) {
  std::uint64_t until = 0;
  if (sd_bus_get_timeout(bus, &until) < 0 || until == UINT64_MAX) return -1;
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  const auto now_usec = static_cast<std::uint64_t>(now.tv_sec) * 1000000 +
                        static_cast<std::uint64_t>(now.tv_nsec) / 1000;
  if (until <= now_usec) return 0;
  return static_cast<int>(std::min<std::uint64_t>((until - now_usec + 999) / 1000, 60000));
}

}  // namespace

std::optional<std::string> logind_shutdown_watch::start(prepare_callback callback) {
  if (thread_.joinable()) return std::nullopt;
  callback_ = std::move(callback);
  sd_bus* bus = nullptr;
  int result = sd_bus_open_system_with_description(&bus, "runwarden-shutdown-watch");
  if (result < 0) return std::string{"no system bus: "} + std::strerror(-result);
  (void)sd_bus_set_method_call_timeout(bus, 5 * 1000 * 1000);  // AddMatch's, on this thread
  result = sd_bus_match_signal(bus, nullptr, "org.freedesktop.login1", "/org/freedesktop/login1",
                               "org.freedesktop.login1.Manager", "PrepareForShutdown", on_prepare,
                               &callback_);
  if (result < 0) {
    sd_bus_flush_close_unref(bus);
    return std::string{"cannot subscribe to PrepareForShutdown: "} + std::strerror(-result);
  }
  wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_ < 0) {
    sd_bus_flush_close_unref(bus);
    return std::string{"eventfd: "} + std::strerror(errno);
  }
  bus_ = bus;
  thread_ = std::thread{[this] { run(); }};
  return std::nullopt;
}

void logind_shutdown_watch::run() {
  auto* bus = static_cast<sd_bus*>(bus_);
  for (;;) {
    int processed = 0;
    while ((processed = sd_bus_process(bus, nullptr)) > 0) {
    }
    if (processed < 0) return;  // the bus went away: no more signals to hear
    pollfd descriptors[2] = {{sd_bus_get_fd(bus), static_cast<short>(sd_bus_get_events(bus)), 0},
                             {wake_, POLLIN, 0}};
    if (::poll(descriptors, 2, poll_timeout_ms(bus)) < 0 && errno != EINTR) return;
    if (descriptors[1].revents != 0) return;
  }
}

void logind_shutdown_watch::stop() {
  if (!thread_.joinable()) return;
  const std::uint64_t one = 1;
  (void)!::write(wake_, &one, sizeof one);
  thread_.join();
  sd_bus_flush_close_unref(static_cast<sd_bus*>(bus_));
  bus_ = nullptr;
  ::close(wake_);
  wake_ = -1;
}

#endif

}  // namespace runwarden

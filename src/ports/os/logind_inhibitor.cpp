// See logind_inhibitor.hpp. RUNWARDEN_STATIC comes from CMakeLists.txt's static variant,
// which has no libsystemd. Checked against logind's D-Bus API (org.freedesktop.login1(5),
// "Inhibit()": what, who, why, mode in; a file descriptor out) and sd-bus's ownership rule
// for a descriptor read from a message (sd_bus_message_read(3): it stays the message's, so
// it is duplicated before the reply is freed).
#include "src/ports/os/logind_inhibitor.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#if !RUNWARDEN_STATIC
#include <systemd/sd-bus.h>
#endif

namespace runwarden {

#if RUNWARDEN_STATIC

bool logind_inhibitor::supported() { return false; }

std::optional<inhibit_failure> logind_inhibitor::take(std::string_view) {
  return inhibit_failure{.no_logind = true,
                         .text =
                             "this static build has no sd-bus: it holds no shutdown "
                             "inhibitor lock"};
}

#else

namespace {

// Each sd-bus object freed on every path out.
struct bus_handle {
  sd_bus* value = nullptr;
  ~bus_handle() { sd_bus_flush_close_unref(value); }
};
struct message_handle {
  sd_bus_message* value = nullptr;
  ~message_handle() { sd_bus_message_unref(value); }
};
struct error_handle {
  sd_bus_error value = SD_BUS_ERROR_NULL;
  ~error_handle() { sd_bus_error_free(&value); }
};

// The errors that mean "no logind here", not "logind refused".
bool means_no_logind(int result, const sd_bus_error& error) {
  if (result == -ENOENT || result == -ECONNREFUSED || result == -EACCES) return true;
  return sd_bus_error_has_name(&error, SD_BUS_ERROR_SERVICE_UNKNOWN) ||
         sd_bus_error_has_name(&error, SD_BUS_ERROR_NAME_HAS_NO_OWNER);
}

}  // namespace

bool logind_inhibitor::supported() { return true; }

std::optional<inhibit_failure> logind_inhibitor::take(std::string_view why) {
  if (held()) return std::nullopt;
  bus_handle bus;
  int result = sd_bus_open_system_with_description(&bus.value, "runwarden-inhibit");
  if (result < 0)
    return inhibit_failure{.no_logind = true,
                           .text = std::string{"no system bus: "} + std::strerror(-result)};
  (void)sd_bus_set_method_call_timeout(bus.value,
                                       std::chrono::microseconds{inhibit_call_timeout_max}.count());
  error_handle error;
  message_handle reply;
  const std::string reason{why};
  result =
      sd_bus_call_method(bus.value, "org.freedesktop.login1", "/org/freedesktop/login1",
                         "org.freedesktop.login1.Manager", "Inhibit", &error.value, &reply.value,
                         "ssss", "shutdown", "runwarden", reason.c_str(), "delay");
  if (result < 0) {
    std::string text = "logind's Inhibit failed: ";
    text += error.value.message != nullptr ? error.value.message : std::strerror(-result);
    return inhibit_failure{.no_logind = means_no_logind(result, error.value), .text = text};
  }
  int descriptor = -1;
  result = sd_bus_message_read(reply.value, "h", &descriptor);
  if (result < 0 || descriptor < 0)
    return inhibit_failure{.no_logind = false,
                           .text = "logind's Inhibit answered without a descriptor"};
  descriptor_ = ::fcntl(descriptor, F_DUPFD_CLOEXEC, 3);
  if (descriptor_ < 0)
    return inhibit_failure{
        .no_logind = false,
        .text = std::string{"cannot keep the inhibitor's descriptor: "} + std::strerror(errno)};
  return std::nullopt;
}

#endif

void logind_inhibitor::release() {
  if (descriptor_ < 0) return;
  ::close(descriptor_);
  descriptor_ = -1;
}

}  // namespace runwarden

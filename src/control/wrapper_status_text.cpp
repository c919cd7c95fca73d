// See wrapper_status_text.hpp.
#include "src/control/wrapper_status_text.hpp"

#include <array>
#include <string_view>

namespace runwarden {

namespace {

// Go's signal names on Linux (syscall's signals table), indexed by signal number.
constexpr std::array<std::string_view, 32> go_signal_names{
    "",
    "hangup",
    "interrupt",
    "quit",
    "illegal instruction",
    "trace/breakpoint trap",
    "aborted",
    "bus error",
    "floating point exception",
    "killed",
    "user defined signal 1",
    "segmentation fault",
    "user defined signal 2",
    "broken pipe",
    "alarm clock",
    "terminated",
    "stack fault",
    "child exited",
    "continued",
    "stopped (signal)",
    "stopped",
    "stopped (tty input)",
    "stopped (tty output)",
    "urgent I/O condition",
    "CPU time limit exceeded",
    "file size limit exceeded",
    "virtual timer expired",
    "profiling timer expired",
    "window changed",
    "I/O possible",
    "power failure",
    "bad system call",
};

std::string go_signal_text(int signal_number) {
  if (signal_number > 0 && static_cast<std::size_t>(signal_number) < go_signal_names.size())
    return std::string{go_signal_names[static_cast<std::size_t>(signal_number)]};
  return "signal " + std::to_string(signal_number);
}

}  // namespace

runner_wrapper::Status wrapper_status_of(const warden_snapshot& snapshot) {
  switch (snapshot.status) {
    // The wrapper says unknown until its process has started.
    case warden_status::starting:
      return runner_wrapper::unknown;
    case warden_status::running:
      return runner_wrapper::running;
    case warden_status::shutting_down:
      return runner_wrapper::in_shutdown;
    case warden_status::gone:
      return runner_wrapper::stopped;
  }
  return runner_wrapper::unknown;
}

std::string wrapper_failure_reason(const warden_snapshot& snapshot) {
  if (!snapshot.spawn_failure.empty()) return "failed to start process: " + snapshot.spawn_failure;
  // While a runner runs (a restarted one, under `runwarden run`), the last failure is past.
  if (snapshot.runner_pid || !snapshot.last_exit) return "";
  return go_exit_text(*snapshot.last_exit);
}

std::string go_exit_text(const exit_status& status) {
  if (status.normal()) return "";
  if (status.signaled) return "signal: " + go_signal_text(status.value);
  return "exit status " + std::to_string(status.value);
}

}  // namespace runwarden

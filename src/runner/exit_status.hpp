#pragma once
// How a runner process ended, as the supervision's restart decision, the drain machine and
// runwarden's own exit code read it.

#include <string>

namespace runwarden {

// runwarden's exit code when its runner ended in a way nobody could read (see exit_status)
// and nothing proves its jobs were done: EX_TEMPFAIL, documented in README.md.
inline constexpr int runner_end_unknown_exit_code = 75;

// How a process ended: exited with a code, killed by a signal, or, for a runner adopted by a
// restarted runwarden (no child of it, so its status cannot be waited for), unknown.
struct exit_status {
  bool signaled = false;
  int value = 0;         // the exit code, or the signal number when signaled
  bool unknown = false;  // the end was seen, its status could not be read
  // The shell's convention, which tini and runwarden follow for their own exit code.
  int as_exit_code() const {
    if (unknown) return runner_end_unknown_exit_code;
    return signaled ? 128 + value : value;
  }
  bool normal() const { return !unknown && !signaled && value == 0; }
  friend bool operator==(const exit_status&, const exit_status&) = default;
};

std::string to_string(const exit_status& status);

}  // namespace runwarden

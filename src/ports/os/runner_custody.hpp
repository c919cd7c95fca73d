#pragma once
// Runners that a stopped embedded instance left running, as instance.hpp promises. The host
// process stays their parent and holds their output pipes: were the pipes closed, a runner
// would die of SIGPIPE at its next line (gitlab-runner is a Go program); were they left
// unread, it would block once they filled. So custody keeps reading them (the lines are
// dropped and counted: no instance is there to log them) and reaps each runner when it ends,
// keeping its exit status, until a later instance on the same state directory adopts it.
// One thread serves the whole process; it starts with the first runner left.

#include <sys/types.h>

#include <cstdint>
#include <optional>

#include "src/runner/exit_status.hpp"

namespace runwarden::runner_custody {

// A runner the caller spawned and has not reaped, with its pipes' read ends (-1: none);
// custody owns the descriptors from now on.
struct left_runner {
  pid_t pid = -1;
  int stdout_fd = -1;
  int stderr_fd = -1;
};
void leave(left_runner runner);

// A runner taken back: its pipes (still open ones, -1 otherwise) and its end, when it came
// while in custody. The caller owns the descriptors and, while it runs, the reaping.
struct taken_runner {
  int stdout_fd = -1;
  int stderr_fd = -1;
  std::optional<exit_status> ended;
  std::uint64_t dropped_lines = 0;
};
// nullopt when `pid` is not in custody (not left by an instance of this process).
std::optional<taken_runner> take(pid_t pid);

}  // namespace runwarden::runner_custody

#pragma once
// Starts a command held at a start gate: the child is forked, and waits, before it executes
// the command, for one byte on a socket whose other end the parent keeps. open_gate lets it
// run the command; closing the parent's end without a byte (or the parent's death, which
// closes it too) ends the child with exit code 125 without running anything. The child has
// the command's arguments byte for byte, runwarden's environment unchanged, a process group
// of its own, default signal dispositions, an empty signal mask, and no descriptor but
// stdin, stdout and stderr (the control socket held by a runner kept answering after
// runwarden's kill -9, and the restarted runwarden refused to start).

#include <sys/types.h>

#include <string>
#include <vector>

namespace runwarden {

struct gated_child {
  pid_t pid = -1;
  int gate = -1;         // the parent's end: open_gate, or ::close to end the child
  int error_number = 0;  // when it could not start: pid is -1
  std::string error;     // "gitlab-runner: No such file or directory", "fork: ..."
};

// The command is looked up as execvp would (a name with a slash is a path; otherwise each
// PATH entry in turn), before the fork, so that a missing or non-executable command is an
// error here, not an exit of the child. stdout_fd and stderr_fd: -1 keeps runwarden's own.
gated_child spawn_gated(const std::vector<std::string>& argv, int stdout_fd, int stderr_fd);

// Lets the child run its command and closes the gate. False when the child is already gone.
bool open_gate(int gate);

// The exit code of a child whose gate closed without opening.
inline constexpr int gate_closed_exit_code = 125;

}  // namespace runwarden

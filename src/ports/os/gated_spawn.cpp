// See gated_spawn.hpp. The child of a fork in a program with other threads may call only
// async-signal-safe functions until it executes the command (another thread may have held
// malloc's lock at the fork), so everything it needs is prepared before the fork: the
// argument vector and the paths to try. Signals are blocked around the fork, so that none
// of runwarden's handlers runs in the child before it set every disposition to default.
#include "src/ports/os/gated_spawn.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "src/util/assert.hpp"

extern char** environ;

namespace runwarden {

namespace {

// Where execvp would look for `name`, in its order; glibc's own default without PATH.
std::vector<std::string> places_to_look(const std::string& name) {
  if (name.find('/') != std::string::npos) return {name};
  const char* path = std::getenv("PATH");
  const std::string directories = path ? path : "/bin:/usr/bin";
  std::vector<std::string> places;
  std::size_t start = 0;
  for (;;) {
    const auto end = directories.find(':', start);
    const auto directory = directories.substr(start, end == std::string::npos ? end : end - start);
    places.push_back((directory.empty() ? std::string{"."} : directory) + "/" + name);
    if (end == std::string::npos) return places;
    start = end + 1;
  }
}

// 0 when one of the places is an executable file, else the error execvp would give: EACCES
// when one was found but cannot be executed, ENOENT when none was found.
int lookup_error(const std::vector<std::string>& places) {
  int error = ENOENT;
  for (const auto& place : places) {
    struct stat status {};
    if (::stat(place.c_str(), &status) != 0) {
      if (errno == EACCES) error = EACCES;
      continue;
    }
    if (S_ISREG(status.st_mode) && ::access(place.c_str(), X_OK) == 0) return 0;
    error = EACCES;
  }
  return error;
}

[[noreturn]] void run_child(int gate, int parents_end, int stdout_fd, int stderr_fd,
                            char* const* argv, const char* const* places, std::size_t place_count) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int signal_number = 1; signal_number < NSIG; ++signal_number)
    ::sigaction(signal_number, &default_action, nullptr);  // KILL and STOP refuse: fine
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::close(parents_end);  // else the gate could not close with runwarden's death
  ::setpgid(0, 0);
  if (stdout_fd >= 0) ::dup2(stdout_fd, STDOUT_FILENO);
  if (stderr_fd >= 0) ::dup2(stderr_fd, STDERR_FILENO);
  char go = 0;
  ssize_t got = 0;
  do {
    got = ::read(gate, &go, 1);
  } while (got < 0 && errno == EINTR);
  if (got != 1) ::_exit(gate_closed_exit_code);
  ::close_range(STDERR_FILENO + 1, ~0U, 0);
  for (std::size_t i = 0; i < place_count; ++i) ::execve(places[i], argv, environ);
  ::_exit(127);  // gone between the lookup and now: as a shell reports a missing command
}

gated_child failed(int error_number, const std::string& what) {
  return {.pid = -1,
          .gate = -1,
          .error_number = error_number,
          .error = what + ": " + std::strerror(error_number)};
}

}  // namespace

gated_child spawn_gated(const std::vector<std::string>& argv, int stdout_fd, int stderr_fd) {
  RUNWARDEN_ASSERT(!argv.empty());
  const auto places = places_to_look(argv[0]);
  if (const int error = lookup_error(places)) return failed(error, argv[0]);
  int ends[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    return failed(errno, "socketpair");
  std::vector<char*> arguments;
  for (const auto& argument : argv) arguments.push_back(const_cast<char*>(argument.c_str()));
  arguments.push_back(nullptr);
  std::vector<const char*> paths;
  for (const auto& place : places) paths.push_back(place.c_str());

  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  const pid_t pid = ::fork();
  if (pid == 0)
    run_child(ends[1], ends[0], stdout_fd, stderr_fd, arguments.data(), paths.data(), paths.size());
  const int fork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::close(ends[1]);
  if (pid < 0) {
    ::close(ends[0]);
    return failed(fork_error, "fork");
  }
  ::setpgid(pid, pid);  // as the child does: whichever runs first, the group exists
  return {.pid = pid, .gate = ends[0], .error_number = 0, .error = {}};
}

bool open_gate(int gate) {
  const char go = 'g';
  const bool sent = ::send(gate, &go, 1, MSG_NOSIGNAL) == 1;
  ::close(gate);
  return sent;
}

}  // namespace runwarden

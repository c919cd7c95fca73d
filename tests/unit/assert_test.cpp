// RUNWARDEN_ASSERT stays on whatever the build: this file defines NDEBUG before anything is
// included (release builds define it anyway), so a macro that listened to it would be off
// here. Each failing assertion runs in a forked child whose stderr comes back through a
// pipe, read to its end, and the parent checks how the child ended: killed by SIGABRT,
// having printed the expression, this file and the line. The condition is counted by a
// call that writes a line of its own each time it runs, so "exactly once" is observed in
// the child's output too, not assumed.

#ifndef NDEBUG
#define NDEBUG
#endif

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <string>

#include "src/util/assert.hpp"

namespace {

struct child_end {
  bool aborted = false;  // killed by SIGABRT
  std::string error_output;
};

// Runs `body` in a forked child with its stderr captured; a body that returns exits 0.
template <class Body>
child_end run_in_child(Body body) {
  int pipe_ends[2];
  REQUIRE(::pipe(pipe_ends) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // Catch's own SIGABRT handler would report a failed test from the child; the default
    // action is what a production process has.
    std::signal(SIGABRT, SIG_DFL);
    ::dup2(pipe_ends[1], STDERR_FILENO);
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    body();
    ::_exit(0);
  }
  ::close(pipe_ends[1]);
  child_end end;
  char buffer[512];
  for (;;) {
    const ssize_t got = ::read(pipe_ends[0], buffer, sizeof buffer);
    if (got > 0) end.error_output.append(buffer, static_cast<std::size_t>(got));
    if (got == 0 || (got < 0 && errno != EINTR)) break;
  }
  ::close(pipe_ends[0]);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  end.aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
  return end;
}

// The condition's value, announced on stderr each time it is asked for.
bool announced(bool value) {
  std::fputs("condition evaluated\n", stderr);
  return value;
}

std::size_t count_of(const std::string& text, const std::string& word) {
  std::size_t count = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++count;
  return count;
}

// The child's stderr without the line qemu-user adds when the emulated program aborts
// ("qemu: uncaught target signal 6 (Aborted) - core dumped"): the arm64 build's tests run
// under qemu-aarch64-static, and that line is the emulator's, not runwarden's.
std::string own_output(const std::string& text) {
  const auto emulator = text.find("qemu: uncaught target signal");
  return emulator == std::string::npos ? text : text.substr(0, emulator);
}

}  // namespace

TEST_CASE("A false assertion prints the expression, file and line, and aborts under NDEBUG") {
  volatile int jobs_running = 2;  // volatile: decided at run time, not folded away
  const child_end end = run_in_child([&] { RUNWARDEN_ASSERT(jobs_running == 3); });
  const int assert_line = __LINE__ - 1;
  CHECK(end.aborted);
  CHECK(own_output(end.error_output) == "runwarden: assertion failed: jobs_running == 3 (" +
                                            std::string{__FILE__} + ":" +
                                            std::to_string(assert_line) + ")\n");
}

TEST_CASE("A false assertion evaluates its condition exactly once before aborting") {
  const child_end end = run_in_child([] { RUNWARDEN_ASSERT(announced(false)); });
  CHECK(end.aborted);
  CHECK(count_of(end.error_output, "condition evaluated\n") == 1);
  CHECK(count_of(end.error_output, "assertion failed: announced(false)") == 1);
}

TEST_CASE("A true assertion evaluates its condition exactly once and goes on") {
  const child_end end = run_in_child([] {
    RUNWARDEN_ASSERT(announced(true));
    std::fputs("went on\n", stderr);
  });
  CHECK_FALSE(end.aborted);
  CHECK(end.error_output == "condition evaluated\nwent on\n");
}

// The runner's start gate with real processes: a gated child runs nothing until its gate
// opens, and a gate closed unopened (as runwarden's death closes it) ends the child with
// exit code 125 without running the command. The command gets its arguments and the
// environment byte for byte (a shell in between would drop variables whose names are not
// shell names, and set PWD), a process group of its own, and a missing or non-executable
// command is reported as execvp reports it, before anything is forked.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "src/ports/os/gated_spawn.hpp"

namespace runwarden {

namespace {

struct temp_directory {
  temp_directory()
      : path(std::filesystem::temp_directory_path() /
             ("runwarden-gate-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~temp_directory() { std::filesystem::remove_all(path); }
  std::filesystem::path path;
};

// The exit code of a child that exited, or -signal.
int wait_for(pid_t pid) {
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// Runs argv through an opened gate; its stdout and exit code.
std::pair<std::string, int> run_released(const std::vector<std::string>& argv) {
  int out[2] = {-1, -1};
  REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
  const auto child = spawn_gated(argv, out[1], -1);
  ::close(out[1]);
  REQUIRE(child.pid > 0);
  CHECK(::getpgid(child.pid) == child.pid);
  CHECK(open_gate(child.gate));
  std::string output;
  char chunk[4096];
  for (ssize_t got; (got = ::read(out[0], chunk, sizeof chunk)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    REQUIRE(got > 0);
    output.append(chunk, static_cast<std::size_t>(got));
  }
  ::close(out[0]);
  return {output, wait_for(child.pid)};
}

}  // namespace

TEST_CASE("a gated child runs its command only once its gate opens", "[gated_spawn]") {
  temp_directory directory;
  const auto marker = directory.path / "ran";
  const std::vector<std::string> argv{"/bin/sh", "-c", "echo ran > '" + marker.string() + "'"};

  SECTION("a gate closed unopened, as runwarden's death closes it: the command never runs") {
    const auto child = spawn_gated(argv, -1, -1);
    REQUIRE(child.pid > 0);
    ::close(child.gate);
    CHECK(wait_for(child.pid) == gate_closed_exit_code);
    CHECK_FALSE(std::filesystem::exists(marker));
  }
  SECTION("an opened gate: the command runs, in the same process") {
    const auto child = spawn_gated(argv, -1, -1);
    REQUIRE(child.pid > 0);
    CHECK(open_gate(child.gate));
    CHECK(wait_for(child.pid) == 0);
    CHECK(std::filesystem::exists(marker));
  }
}

TEST_CASE("the command gets its arguments and the environment byte for byte", "[gated_spawn]") {
  const auto [arguments, arguments_exit] =
      run_released({"/bin/sh", "-c", "printf '[%s]\\n' \"$0\" \"$@\"", "zero", "with space", "",
                    "\xc3\xbc"
                    "n"
                    "\xc3\xaf"
                    "code"});
  CHECK(arguments_exit == 0);
  CHECK(arguments ==
        "[zero]\n[with space]\n[]\n[\xc3\xbc"
        "n"
        "\xc3\xaf"
        "code]\n");

  // Not shell names: a shell between runwarden and the runner would drop both.
  REQUIRE(::setenv("RUNWARDEN.GATE-TEST", "a=b c", 1) == 0);
  const auto [environment, environment_exit] = run_released({"env"});  // found through PATH
  ::unsetenv("RUNWARDEN.GATE-TEST");
  CHECK(environment_exit == 0);
  CHECK(environment.find("\nRUNWARDEN.GATE-TEST=a=b c\n") != std::string::npos);
}

TEST_CASE("a missing or non-executable command is an error before any fork", "[gated_spawn]") {
  const auto missing = spawn_gated({"runwarden-no-such-command"}, -1, -1);
  CHECK(missing.pid == -1);
  CHECK(missing.error_number == ENOENT);
  CHECK(missing.error == "runwarden-no-such-command: No such file or directory");

  temp_directory directory;
  const auto script = directory.path / "not-executable";
  std::ofstream{script} << "#!/bin/sh\n";
  std::filesystem::permissions(
      script, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const auto refused = spawn_gated({script.string()}, -1, -1);
  CHECK(refused.pid == -1);
  CHECK(refused.error_number == EACCES);
  CHECK(refused.error == script.string() + ": Permission denied");
}

}  // namespace runwarden

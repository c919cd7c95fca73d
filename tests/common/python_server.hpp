#pragma once
// A Python HTTP server as a child process, for tests that talk to a real socket: it prints
// its port on the first line of stdout, then one JSON line per request it saw. Its stdin is
// the leash: closing it ends the server, so it never outlives the test that started it.
// Debian's /usr/bin/python3 runs it (see HELPER notes: the python3 on PATH may differ).

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

namespace runwarden::testing {

class python_server {
 public:
  static constexpr std::chrono::milliseconds read_wait_max{10'000};

  python_server(const std::string& script, std::vector<std::string> arguments) {
    int to_child[2];
    int from_child[2];
    REQUIRE(::pipe2(to_child, O_CLOEXEC) == 0);
    REQUIRE(::pipe2(from_child, O_CLOEXEC) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
    arguments.insert(arguments.begin(), {"/usr/bin/python3", script});
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    const int spawned = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(to_child[0]);
    ::close(from_child[1]);
    leash_ = to_child[1];
    output_ = from_child[0];
    REQUIRE(spawned == 0);
    const auto first = read_line(read_wait_max);
    REQUIRE(first);
    port_ = std::stoi(*first);
  }

  python_server(const python_server&) = delete;
  python_server& operator=(const python_server&) = delete;

  ~python_server() {
    ::close(leash_);
    for (int waited_ms = 0; waited_ms < 5'000; waited_ms += 10) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        ::close(output_);
        return;
      }
      ::usleep(10'000);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    ::close(output_);
  }

  std::string url(const std::string& host, const std::string& path) const {
    return "http://" + host + ":" + std::to_string(port_) + path;
  }
  int port() const { return port_; }

  // Writes one line (a newline is added) to the server's stdin: how a test steers it.
  void send_line(const std::string& line) {
    const std::string text = line + "\n";
    REQUIRE(::write(leash_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }

  // The next `count` requests the server saw, fewer if they do not come within `wait`.
  std::vector<nlohmann::json> requests(std::size_t count,
                                       std::chrono::milliseconds wait = read_wait_max) {
    std::vector<nlohmann::json> seen;
    while (seen.size() < count) {
      const auto line = read_line(wait);
      if (!line) break;
      seen.push_back(nlohmann::json::parse(*line));
    }
    return seen;
  }

  // The next line of output, or nullopt when none comes within `wait`.
  std::optional<std::string> read_line(std::chrono::milliseconds wait) {
    for (;;) {
      if (const auto end = buffer_.find('\n'); end != std::string::npos) {
        auto line = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        return line;
      }
      pollfd ready{output_, POLLIN, 0};
      if (::poll(&ready, 1, static_cast<int>(wait.count())) <= 0) return std::nullopt;
      char chunk[4096];
      const auto got = ::read(output_, chunk, sizeof chunk);
      if (got <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }

 private:
  pid_t pid_ = -1;
  int leash_ = -1;
  int output_ = -1;
  int port_ = 0;
  std::string buffer_;
};

}  // namespace runwarden::testing

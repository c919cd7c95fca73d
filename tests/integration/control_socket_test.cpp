// The control socket as a file on disk, and `runwarden ctl` when nobody answers there. Each
// test runs the real binary and judges by what the file system shows (modes, the socket
// file appearing and going), by exit codes and by the sentences on stderr. A live server
// and a stale socket are made with plain sockets in the test's own directory, so the cases
// "another runwarden answers" and "a crashed runwarden left its socket" are real ones.
// (What the API answers is tested from Python: tests/python/test_control_api.py.)

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/integration/process_harness.hpp"

namespace {

using namespace runwarden_test;
using namespace std::chrono_literals;

// A unix socket bound at path; listening when asked. Closing it leaves the file behind,
// exactly as a crashed server does.
class bound_socket {
 public:
  bound_socket(const std::filesystem::path& path, bool listening) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string text = path.string();
    if (fd_ < 0 || text.size() >= sizeof address.sun_path)
      throw std::runtime_error{"cannot make a socket for " + text};
    std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
        (listening && ::listen(fd_, 4) != 0))
      throw std::runtime_error{"cannot bind " + text + ": " + std::strerror(errno)};
  }
  ~bound_socket() { ::close(fd_); }
  bound_socket(const bound_socket&) = delete;
  bound_socket& operator=(const bound_socket&) = delete;

 private:
  int fd_ = -1;
};

mode_t mode_of(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return 0;
  return info.st_mode & 07777;
}

std::vector<std::string> demo_quick(const temp_dir& dir) {
  return demo_command(dir, {"--job-seconds", "0.3", "--job-interval", "0.1"});
}

std::string describe(const warden_process& warden) {
  return "runwarden stderr:\n" + warden.stderr_text();
}

}  // namespace

TEST_CASE("the control socket is 0660 in a 0750 directory, and is gone after the exit",
          "[process][control]") {
  temp_dir dir;
  const auto socket_dir = dir.file("run") / "runwarden";
  const auto socket = socket_dir / "control.sock";
  warden_process warden{dir, run_args(std::vector<std::string>{"--kind", "gitlab", "--grpc-listen",
                                                               "unix://" + socket.string()},
                                      demo_quick(dir))};
  REQUIRE(warden.wait_for_stderr("control API listening on unix://" + socket.string()));
  CHECK(mode_of(socket_dir) == 0750);
  CHECK(mode_of(socket) == 0660);
  CHECK(std::filesystem::is_socket(socket));
  // A runner signalled before it is ready would die of the signal's default action.
  REQUIRE(demo_report{dir.report_path()}.wait_for("job_started 1"));
  warden.send_signal(SIGTERM);
  const auto code = warden.wait_exit();
  INFO(describe(warden));
  CHECK(code == 0);
  CHECK_FALSE(std::filesystem::exists(socket));
  CHECK(std::filesystem::is_directory(socket_dir));
}

TEST_CASE("a stale socket nobody answers on is replaced", "[process][control]") {
  temp_dir dir;
  { const bound_socket crashed{dir.control_socket_path(), false}; }
  REQUIRE(std::filesystem::is_socket(dir.control_socket_path()));
  warden_process warden{dir,
                        run_args(std::vector<std::string>{"--kind", "gitlab"}, demo_quick(dir))};
  REQUIRE(warden.wait_for_stderr("control API listening"));
  CHECK(contains(warden.stderr_text(), "removed the stale control socket"));
  REQUIRE(demo_report{dir.report_path()}.wait_for("job_started 1"));
  warden.send_signal(SIGTERM);
  const auto code = warden.wait_exit();
  INFO(describe(warden));
  CHECK(code == 0);
}

TEST_CASE("a socket another server answers on refuses the start, before any runner",
          "[process][control]") {
  temp_dir dir;
  const bound_socket live{dir.control_socket_path(), true};
  warden_process warden{dir,
                        run_args(std::vector<std::string>{"--kind", "gitlab"}, demo_quick(dir))};
  const auto code = warden.wait_exit();
  INFO(describe(warden));
  CHECK(code == 69);
  CHECK(contains(warden.stderr_text(),
                 "a server already answers on unix://" + dir.control_socket_path().string()));
  CHECK_FALSE(std::filesystem::exists(dir.report_path()));
  CHECK(std::filesystem::is_socket(dir.control_socket_path()));
}

TEST_CASE("an empty token file refuses the start", "[process][control]") {
  temp_dir dir;
  write_text(dir.file("token"), "\n");
  warden_process warden{dir, run_args(std::vector<std::string>{"--kind", "gitlab", "--token-file",
                                                               dir.file("token").string()},
                                      demo_quick(dir))};
  const auto code = warden.wait_exit();
  INFO(describe(warden));
  CHECK(code == 78);
  CHECK(contains(warden.stderr_text(), "is empty"));
  CHECK_FALSE(std::filesystem::exists(dir.report_path()));
}

TEST_CASE("ctl says when nobody listens at the socket", "[process][control][ctl]") {
  temp_dir dir;
  const auto socket = dir.control_socket_path().string();
  SECTION("no socket file") {
    warden_process ctl{dir, {"ctl", "--socket", socket, "status"}};
    CHECK(ctl.wait_exit() == 69);
    CHECK(contains(ctl.stderr_text(),
                   "no runwarden listening at unix://" + socket + ": no such file"));
  }
  SECTION("a stale socket file") {
    { const bound_socket crashed{dir.control_socket_path(), false}; }
    warden_process ctl{dir, {"ctl", "--addr", "unix://" + socket, "shutdown", "--wait"}};
    CHECK(ctl.wait_exit() == 69);
    CHECK(contains(ctl.stderr_text(),
                   "no runwarden listening at unix://" + socket + ": connection refused"));
  }
}

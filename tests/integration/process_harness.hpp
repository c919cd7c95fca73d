#pragma once
// The process tests drive the real runwarden binary, which supervises the real demo runner,
// and judge it only by what can be seen from outside: its exit code, what it wrote to
// stdout and stderr, and the report file the demo runner appends to (argv bytes, process
// ids, signals received, job events). This harness starts runwarden with posix_spawn in a
// fresh temporary directory, its stdout and stderr going to files there, and gives the
// tests signals, exit waits and condition waits that are all bounded: a test that fails
// never hangs, and whatever it leaves running (runwarden, runners, orphans) is killed when
// its warden_process goes out of scope.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden_test {

using test_clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The longest any single wait may take. Generous, because the sanitizer build on a busy
// 2-core CI machine starts and stops processes slowly; passing tests never come near it.
inline constexpr milliseconds wait_ms_max{15000};
// How often a bounded wait looks again.
inline constexpr milliseconds poll_interval_ms{5};

// A directory of its own for one test, removed with everything in it at the end.
class temp_dir {
 public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path file(std::string_view name) const { return path_ / name; }
  // Where demo_command tells the demo runner to write its report.
  std::filesystem::path report_path() const { return file("report"); }
  // Where every runwarden the harness starts serves its control API, so that tests running
  // in parallel never share (or remove) one another's socket.
  std::filesystem::path control_socket_path() const { return file("control.sock"); }

 private:
  std::filesystem::path path_;
};

// The whole file, or "" when it does not exist (yet).
std::string read_text(const std::filesystem::path& file);
void write_text(const std::filesystem::path& file, std::string_view text);
std::vector<std::string> split_lines(std::string_view text);
bool contains(std::string_view text, std::string_view part);

// Polls condition until it holds (true) or timeout passes (false).
bool eventually(const std::function<bool()>& condition, milliseconds timeout = wait_ms_max);

// args with, for a `run`, --grpc-listen unix://DIR/control.sock and --http-listen none
// added after "run" unless args (before any "--") set them already.
std::vector<std::string> control_args(const temp_dir& dir, std::vector<std::string> args);

// The argv of `runwarden run FLAGS... -- COMMAND...`, without argv[0].
std::vector<std::string> run_args(const std::vector<std::string>& flags,
                                  const std::vector<std::string>& command);
// The demo runner, reporting to dir.report_path(), with these options (and passthrough).
std::vector<std::string> demo_command(const temp_dir& dir, const std::vector<std::string>& options);

// What /proc/PID/stat says about a process, while it exists.
struct proc_stat {
  std::string comm;
  char state = '?';
  pid_t ppid = -1;
  pid_t pgrp = -1;
};
std::optional<proc_stat> read_proc_stat(pid_t pid);

// One `pid P pgid G ppid Q` line: a start of the demo runner.
struct runner_start {
  pid_t pid = -1;
  pid_t pgid = -1;
  pid_t ppid = -1;
};

// The demo runner's report file, read afresh by every call.
class demo_report {
 public:
  explicit demo_report(std::filesystem::path file) : file_(std::move(file)) {}

  std::vector<std::string> lines() const;
  bool has(std::string_view line) const;
  // Index of the first line equal to `line`.
  std::optional<std::size_t> index_of(std::string_view line) const;
  std::size_t count_starting_with(std::string_view prefix) const;
  std::vector<runner_start> starts() const;
  std::vector<pid_t> orphans() const;
  // Waits (bounded) until the report has this exact line.
  bool wait_for(std::string_view line, milliseconds timeout = wait_ms_max) const;
  // All the lines, for failure messages.
  std::string text() const;

 private:
  std::filesystem::path file_;
};

// One running runwarden. Signals go to its pid; it sits in a process group of its own so
// that nothing aimed at the test binary's group reaches it by accident.
class warden_process {
 public:
  // Starts RUNWARDEN_BINARY with args; stdin is /dev/null, stdout and stderr go to
  // dir/warden.stdout and dir/warden.stderr. Throws std::runtime_error when spawn fails.
  // A `run` without its own --grpc-listen or --http-listen gets the control socket
  // dir.control_socket_path(), no HTTP listener and a state directory in `dir` (see
  // control_args).
  warden_process(const temp_dir& dir, const std::vector<std::string>& args);
  ~warden_process();
  warden_process(const warden_process&) = delete;
  warden_process& operator=(const warden_process&) = delete;

  pid_t pid() const { return pid_; }
  test_clock::time_point started_at() const { return started_at_; }
  void send_signal(int signal_number) const;
  // The exit code as a shell reports it (128 + signal when killed), or nullopt when it is
  // still running after timeout.
  std::optional<int> wait_exit(milliseconds timeout = wait_ms_max);
  bool running();
  std::string stdout_text() const;
  std::string stderr_text() const;
  // Waits (bounded) until runwarden's stderr contains `part`.
  bool wait_for_stderr(std::string_view part, milliseconds timeout = wait_ms_max) const;

 private:
  void kill_leftovers();

  std::filesystem::path stdout_file_;
  std::filesystem::path stderr_file_;
  std::filesystem::path report_file_;
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  test_clock::time_point started_at_;
};

}  // namespace runwarden_test

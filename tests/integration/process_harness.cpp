// See process_harness.hpp. Output goes to files rather than pipes so that no reader thread
// is needed and a runwarden that floods its stderr can never block on a full pipe; the
// tests read the files while runwarden runs. Clean-up trusts no pid blindly: it kills only
// processes that /proc shows are runwarden's children, or demo runners named in the report.

#include "tests/integration/process_harness.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace runwarden_test {

namespace {

// The kernel keeps 15 bytes of a process name: "runwarden-demo-runner" shows as this.
constexpr std::string_view demo_runner_comm_prefix = "runwarden-demo";

bool is_all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::optional<runner_start> parse_runner_start(const std::string& line) {
  std::istringstream words{line};
  std::string pid_word, pgid_word, ppid_word;
  runner_start start;
  if (!(words >> pid_word >> start.pid >> pgid_word >> start.pgid >> ppid_word >> start.ppid))
    return std::nullopt;
  if (pid_word != "pid" || pgid_word != "pgid" || ppid_word != "ppid") return std::nullopt;
  return start;
}

// Children of `parent` according to /proc, so that clean-up can find the runner (and any
// orphan runwarden adopted) whatever the command was.
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator{"/proc", error}) {
    const std::string name = entry.path().filename().string();
    if (!is_all_digits(name)) continue;
    const auto pid = static_cast<pid_t>(std::stol(name));
    const auto stat = read_proc_stat(pid);
    if (stat && stat->ppid == parent) children.push_back(pid);
  }
  return children;
}

// SIGKILLs a process and, when it leads one, its process group (never the test's own).
void kill_process_and_group(pid_t pid) {
  const auto stat = read_proc_stat(pid);
  if (!stat || stat->state == 'Z') return;
  if (stat->pgrp == pid && pid != ::getpgrp()) ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
}

posix_spawn_file_actions_t output_actions(const std::string& stdout_path,
                                          const std::string& stderr_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  return actions;
}

// Its own process group, default dispositions and an empty mask, whatever the test binary
// (or ctest above it) has inherited or installed.
posix_spawnattr_t clean_attributes() {
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t all_signals;
  sigset_t no_signals;
  sigfillset(&all_signals);
  sigdelset(&all_signals, SIGKILL);
  sigdelset(&all_signals, SIGSTOP);
  sigemptyset(&no_signals);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setsigdefault(&attributes, &all_signals);
  posix_spawnattr_setsigmask(&attributes, &no_signals);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  return attributes;
}

}  // namespace

temp_dir::temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern =
      std::string{base != nullptr && *base != '\0' ? base : "/tmp"} + "/runwarden-it-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error{"mkdtemp " + pattern + ": " + std::strerror(errno)};
  path_ = pattern;
}

temp_dir::~temp_dir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream stream{file, std::ios::binary};
  if (!stream) return {};
  return std::string{std::istreambuf_iterator<char>{stream}, std::istreambuf_iterator<char>{}};
}

void write_text(const std::filesystem::path& file, std::string_view text) {
  std::ofstream stream{file, std::ios::binary | std::ios::trunc};
  stream.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!stream) throw std::runtime_error{"cannot write " + file.string()};
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

bool eventually(const std::function<bool()>& condition, milliseconds timeout) {
  const auto deadline = test_clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (test_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(poll_interval_ms);
  }
}

std::vector<std::string> control_args(const temp_dir& dir, std::vector<std::string> args) {
  if (args.empty() || args.front() != "run") return args;
  const auto own_end = std::find(args.begin(), args.end(), "--");
  const auto has = [&](std::string_view flag) {
    return std::any_of(args.begin(), own_end, [&](const std::string& arg) {
      return arg == flag || arg.starts_with(std::string{flag} + "=");
    });
  };
  std::vector<std::string> added;
  if (!has("--grpc-listen"))
    added = {"--grpc-listen", "unix://" + dir.control_socket_path().string()};
  if (!has("--http-listen")) added.insert(added.end(), {"--http-listen", "none"});
  // Each runwarden its own journal: tests run side by side.
  if (!has("--state-dir")) added.insert(added.end(), {"--state-dir", dir.file("state").string()});
  args.insert(args.begin() + 1, added.begin(), added.end());
  return args;
}

std::vector<std::string> run_args(const std::vector<std::string>& flags,
                                  const std::vector<std::string>& command) {
  std::vector<std::string> args{"run"};
  args.insert(args.end(), flags.begin(), flags.end());
  args.emplace_back("--");
  args.insert(args.end(), command.begin(), command.end());
  return args;
}

std::vector<std::string> demo_command(const temp_dir& dir,
                                      const std::vector<std::string>& options) {
  std::vector<std::string> command{DEMO_RUNNER_BINARY, "--report", dir.report_path().string()};
  command.insert(command.end(), options.begin(), options.end());
  return command;
}

std::optional<proc_stat> read_proc_stat(pid_t pid) {
  const std::string text = read_text("/proc/" + std::to_string(pid) + "/stat");
  // "PID (COMM) STATE PPID PGRP ...": COMM may hold spaces and parentheses, so the last
  // ')' ends it.
  const auto open = text.find('(');
  const auto close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  proc_stat stat;
  stat.comm = text.substr(open + 1, close - open - 1);
  std::istringstream rest{text.substr(close + 1)};
  if (!(rest >> stat.state >> stat.ppid >> stat.pgrp)) return std::nullopt;
  return stat;
}

std::vector<std::string> demo_report::lines() const { return split_lines(read_text(file_)); }

std::string demo_report::text() const { return read_text(file_); }

bool demo_report::has(std::string_view line) const { return index_of(line).has_value(); }

std::optional<std::size_t> demo_report::index_of(std::string_view line) const {
  const auto all = lines();
  for (std::size_t index = 0; index < all.size(); ++index) {
    if (all[index] == line) return index;
  }
  return std::nullopt;
}

std::size_t demo_report::count_starting_with(std::string_view prefix) const {
  std::size_t count = 0;
  for (const auto& line : lines()) {
    if (line.starts_with(prefix)) ++count;
  }
  return count;
}

std::vector<runner_start> demo_report::starts() const {
  std::vector<runner_start> starts;
  for (const auto& line : lines()) {
    if (auto start = parse_runner_start(line)) starts.push_back(*start);
  }
  return starts;
}

std::vector<pid_t> demo_report::orphans() const {
  std::vector<pid_t> orphans;
  for (const auto& line : lines()) {
    if (line.starts_with("orphan "))
      orphans.push_back(static_cast<pid_t>(std::stol(line.substr(7))));
  }
  return orphans;
}

bool demo_report::wait_for(std::string_view line, milliseconds timeout) const {
  return eventually([&] { return has(line); }, timeout);
}

warden_process::warden_process(const temp_dir& dir, const std::vector<std::string>& args)
    : stdout_file_(dir.file("warden.stdout")),
      stderr_file_(dir.file("warden.stderr")),
      report_file_(dir.report_path()) {
  std::vector<std::string> argv_text{RUNWARDEN_BINARY};
  const auto full_args = control_args(dir, args);
  argv_text.insert(argv_text.end(), full_args.begin(), full_args.end());
  std::vector<char*> argv;
  for (auto& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  auto actions = output_actions(stdout_file_.string(), stderr_file_.string());
  auto attributes = clean_attributes();
  started_at_ = test_clock::now();
  const int error = ::posix_spawn(&pid_, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) {
    pid_ = -1;
    throw std::runtime_error{std::string{"posix_spawn runwarden: "} + std::strerror(error)};
  }
}

warden_process::~warden_process() {
  try {
    kill_leftovers();
  } catch (...) {
    // A destructor must not throw; what is left is the CI machine's to reap.
  }
}

void warden_process::kill_leftovers() {
  if (pid_ > 0 && running()) {
    const auto children = children_of(pid_);
    ::kill(-pid_, SIGKILL);
    wait_exit(wait_ms_max);
    for (pid_t child : children) kill_process_and_group(child);
  }
  // Runners and orphans that outlived runwarden: only demo runners named in the report.
  const demo_report report{report_file_};
  std::vector<pid_t> listed = report.orphans();
  for (const auto& start : report.starts()) listed.push_back(start.pid);
  for (pid_t pid : listed) {
    const auto stat = read_proc_stat(pid);
    if (stat && stat->comm.starts_with(demo_runner_comm_prefix)) kill_process_and_group(pid);
  }
}

void warden_process::send_signal(int signal_number) const {
  if (pid_ <= 0 || exit_code_) return;  // Never signal a pid that may have been reused.
  if (::kill(pid_, signal_number) != 0)
    throw std::runtime_error{std::string{"kill runwarden: "} + std::strerror(errno)};
}

std::optional<int> warden_process::wait_exit(milliseconds timeout) {
  if (exit_code_ || pid_ <= 0) return exit_code_;
  const auto deadline = test_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t reaped = ::waitpid(pid_, &status, WNOHANG);
    if (reaped == pid_) {
      exit_code_ = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
      return exit_code_;
    }
    if (reaped < 0 && errno != EINTR)
      throw std::runtime_error{std::string{"waitpid runwarden: "} + std::strerror(errno)};
    if (test_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(poll_interval_ms);
  }
}

bool warden_process::running() { return !wait_exit(milliseconds{0}).has_value(); }

std::string warden_process::stdout_text() const { return read_text(stdout_file_); }

std::string warden_process::stderr_text() const { return read_text(stderr_file_); }

bool warden_process::wait_for_stderr(std::string_view part, milliseconds timeout) const {
  return eventually([&] { return contains(stderr_text(), part); }, timeout);
}

}  // namespace runwarden_test

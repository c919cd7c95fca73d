// runwarden-demo-runner: a stand-in for gitlab-runner, for demos and the process tests.
//
// It takes simulated jobs on a timer and answers signals the way gitlab-runner does: SIGQUIT
// drains (no new jobs, exit 0 once the running ones finish), SIGTERM and SIGINT abort, a second
// signal during a drain aborts, SIGHUP reloads. Tests need to see what the supervisor did to it,
// so it can append a machine-readable report (argv bytes, process ids, signals, job events, exit
// code) and it has knobs to misbehave: ignore signals, exit with a code, leave an orphan behind.
// It is one thread with one wait: signals arrive through a signalfd, and ppoll sleeps until the
// earliest deadline (a job ending, the next job starting, --exit-after), so it never spins.
// With --listen-address it serves /metrics as gitlab-runner does (demo_metrics.hpp), answered
// from the same wait.
//
// It writes as gitlab-runner does: job events on stdout, and while jobs run a progress line
// on stderr every 0.25 s (gitlab-runner logs with logrus to stderr all along, commands/
// multi.go). SIGPIPE keeps its default action, as in a Go program (Go's os/signal
// documentation: a write to a broken pipe on fd 1 or 2 ends the program with SIGPIPE): when
// nobody holds its output pipes any more, the next line kills it, as it would kill
// gitlab-runner.

#include <CLI/CLI.hpp>

#include "demo/demo_metrics.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using demo_clock = std::chrono::steady_clock;
using seconds_double = std::chrono::duration<double>;

// Exit codes, chosen to mean something: 2 for usage as most command-line tools do, and 111 for
// a failed system call as s6 does, so a test never mistakes a broken setup for an aborted job.
constexpr int exit_success = 0;
constexpr int exit_jobs_aborted = 1;
constexpr int exit_usage = 2;
constexpr int exit_system = 111;

// Limits on what the command line may ask for, so every loop below stays bounded.
constexpr int concurrency_max = 1000;
constexpr std::int64_t jobs_total_max_limit = 1000000000;
constexpr int stderr_lines_max = 100000;
constexpr double seconds_max = 1e6;
constexpr std::size_t signals_per_read_max = 16;

// How often a progress line is written while jobs run: a broken pipe is met within it.
constexpr std::chrono::milliseconds progress_interval{250};

// The signals gitlab-runner reacts to; all of them arrive through the signalfd.
constexpr int handled_signals[] = {SIGQUIT, SIGTERM, SIGINT, SIGHUP};

struct options {
  int concurrency = 2;
  double job_interval_seconds = 1.5;
  double job_seconds = 6.0;
  std::int64_t jobs_total_max = 0;  // Zero means unlimited.
  std::string report_path;
  bool ignore_signals = false;
  std::optional<int> exit_code;
  std::optional<double> exit_after_seconds;
  std::optional<double> orphan_seconds;
  int stderr_lines = 0;
  std::string listen_address;  // empty: no /metrics
  std::vector<std::string> passthrough_args;
};

struct job {
  std::int64_t id = 0;
  demo_clock::time_point end;
};

struct runner_state {
  std::vector<job> running;  // At most options::concurrency entries.
  std::int64_t jobs_taken = 0;
  demo_clock::time_point next_start;
  bool draining = false;
  std::optional<demo_clock::time_point> exit_at;
  demo_clock::time_point next_progress;  // the next progress line, while jobs run
};

// Writes all of text with as few write() calls as the kernel allows (one, for a report file
// opened with O_APPEND, which keeps each report line whole next to other writers).
void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;  // Nobody can be told; the exit code still says what happened.
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

// One human line on stdout, written at once so that it is flushed and never interleaved.
void say(std::string_view line) {
  write_all(STDOUT_FILENO, "demo-runner: " + std::string(line) + "\n");
}

class report_file {
 public:
  explicit report_file(int fd) : fd_(fd) {}
  void line(std::string_view text) const {
    if (fd_ >= 0) write_all(fd_, std::string(text) + "\n");
  }
  int fd() const { return fd_; }

 private:
  int fd_;
};

std::string format_seconds(double seconds) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1fs", seconds);
  return buffer;
}

std::string hex_of(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (char c : bytes) {
    auto byte = static_cast<unsigned char>(c);
    hex.push_back(digits[byte >> 4]);
    hex.push_back(digits[byte & 0x0f]);
  }
  return hex;
}

std::string signal_name(int signo) {
  switch (signo) {
    case SIGQUIT:
      return "SIGQUIT";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "SIG" + std::to_string(signo);
  }
}

demo_clock::duration to_duration(double seconds) {
  return std::chrono::duration_cast<demo_clock::duration>(seconds_double(seconds));
}

// Parses the options before the first literal "--"; everything after it is kept verbatim for
// the report. Returns an exit code when the program should stop (usage error or --help).
std::optional<int> parse_options(int argc, char** argv, options& opts) {
  int own_argc = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      own_argc = i;
      opts.passthrough_args.assign(argv + i + 1, argv + argc);
      break;
    }
  }
  CLI::App app{"Behaves like gitlab-runner for runwarden demos and tests.",
               "runwarden-demo-runner"};
  app.add_option("--concurrency", opts.concurrency, "Jobs running at most at once")
      ->capture_default_str()
      ->check(CLI::Range(0, concurrency_max));
  app.add_option("--job-interval", opts.job_interval_seconds,
                 "Seconds between job starts while below concurrency")
      ->capture_default_str()
      ->check(CLI::Range(0.0, seconds_max));
  app.add_option("--job-seconds", opts.job_seconds, "Seconds each job lasts")
      ->capture_default_str()
      ->check(CLI::Range(0.0, seconds_max));
  app.add_option("--jobs", opts.jobs_total_max,
                 "Take this many jobs, then exit 0 when they finish (0: unlimited)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{0}, jobs_total_max_limit));
  app.add_option("--report", opts.report_path, "Append machine-readable lines to this file");
  app.add_flag("--ignore-signals", opts.ignore_signals,
               "Ignore SIGQUIT, SIGTERM and SIGINT (still reported)");
  int exit_code = 0;
  double exit_after = 0;
  double orphan = 0;
  auto* exit_code_option =
      app.add_option("--exit-code", exit_code, "Exit with this code after ready (or --exit-after)")
          ->check(CLI::Range(0, 255));
  auto* exit_after_option =
      app.add_option("--exit-after", exit_after, "Exit (with --exit-code, else 0) after seconds")
          ->check(CLI::Range(0.0, seconds_max));
  auto* orphan_option =
      app.add_option("--spawn-orphan", orphan, "Leave a grandchild that sleeps this many seconds")
          ->check(CLI::Range(0.0, seconds_max));
  app.add_option("--listen-address", opts.listen_address,
                 "Serve gitlab-runner's /metrics on HOST:PORT, as gitlab-runner's flag does");
  app.add_option("--stderr-lines", opts.stderr_lines, "Print this many lines to stderr at start")
      ->capture_default_str()
      ->check(CLI::Range(0, stderr_lines_max));
  try {
    app.parse(own_argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    return code == 0 ? exit_success : exit_usage;
  }
  if (exit_code_option->count() > 0) opts.exit_code = exit_code;
  if (exit_after_option->count() > 0) opts.exit_after_seconds = exit_after;
  if (orphan_option->count() > 0) opts.orphan_seconds = orphan;
  return std::nullopt;
}

// Blocks the handled signals and returns a signalfd that receives them. Dispositions are reset
// first: a signal a parent left ignored would be discarded even while blocked.
int open_signal_fd() {
  sigset_t set;
  sigemptyset(&set);
  for (int signo : handled_signals) {
    std::signal(signo, SIG_DFL);
    sigaddset(&set, signo);
  }
  if (sigprocmask(SIG_BLOCK, &set, nullptr) != 0) return -1;
  return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

void unblock_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int signo : handled_signals) sigaddset(&set, signo);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
}

// The grandchild only sleeps. It keeps stdio (as a real leftover build process would) but not
// the report or the signalfd, and takes signals with their default actions again.
[[noreturn]] void run_orphan(double seconds, int signal_fd, const report_file& report) {
  ::close(signal_fd);
  if (report.fd() >= 0) ::close(report.fd());
  unblock_signals();
  timespec deadline{};
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  auto whole = static_cast<std::time_t>(seconds);
  deadline.tv_sec += whole;
  deadline.tv_nsec += static_cast<long>((seconds - static_cast<double>(whole)) * 1e9);
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000L;
  }
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == EINTR) {
  }
  _exit(0);
}

// Double fork: the intermediate child forks the grandchild, sends its pid through a pipe and
// exits at once, and is reaped here; the grandchild is then an orphan for the subreaper.
pid_t spawn_orphan(double seconds, int signal_fd, const report_file& report) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
  pid_t child = fork();
  if (child == 0) {
    ::close(pipe_fds[0]);
    pid_t grandchild = fork();
    if (grandchild == 0) {
      ::close(pipe_fds[1]);
      run_orphan(seconds, signal_fd, report);
    }
    write_all(pipe_fds[1],
              std::string_view(reinterpret_cast<const char*>(&grandchild), sizeof grandchild));
    _exit(grandchild < 0 ? exit_system : 0);
  }
  ::close(pipe_fds[1]);
  pid_t grandchild = -1;
  if (child > 0) {
    ssize_t got = 0;
    do {
      got = ::read(pipe_fds[0], &grandchild, sizeof grandchild);
    } while (got < 0 && errno == EINTR);
    if (got != static_cast<ssize_t>(sizeof grandchild)) grandchild = -1;
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::close(pipe_fds[0]);
  return grandchild;
}

void report_start(const options& opts, const report_file& report) {
  report.line("argc " + std::to_string(opts.passthrough_args.size()));
  for (std::size_t i = 0; i < opts.passthrough_args.size(); ++i) {
    report.line("arg " + std::to_string(i) + " " + hex_of(opts.passthrough_args[i]));
  }
  report.line("pid " + std::to_string(getpid()) + " pgid " + std::to_string(getpgrp()) + " ppid " +
              std::to_string(getppid()));
}

int finish(const report_file& report, int code) {
  say("exiting with code " + std::to_string(code));
  report.line("exit " + std::to_string(code));
  return code;
}

// Aborts every running job, reporting each, and says how many there were.
std::size_t abort_jobs(runner_state& state, const report_file& report) {
  std::size_t aborted = state.running.size();
  for (const job& running : state.running) {
    say("job " + std::to_string(running.id) + " aborted");
    report.line("job_aborted " + std::to_string(running.id));
  }
  state.running.clear();
  return aborted;
}

bool can_take_job(const runner_state& state, const options& opts) {
  bool below_total = opts.jobs_total_max == 0 || state.jobs_taken < opts.jobs_total_max;
  bool below_concurrency = state.running.size() < static_cast<std::size_t>(opts.concurrency);
  return !state.draining && below_total && below_concurrency;
}

void finish_due_jobs(runner_state& state, demo_clock::time_point now, const report_file& report) {
  auto due = std::stable_partition(state.running.begin(), state.running.end(),
                                   [now](const job& running) { return running.end > now; });
  for (auto it = due; it != state.running.end(); ++it) {
    say("job " + std::to_string(it->id) + " finished");
    report.line("job_finished " + std::to_string(it->id));
  }
  state.running.erase(due, state.running.end());
}

// Starts jobs whose start time has come; with a zero interval that fills every free slot.
void start_due_jobs(runner_state& state, const options& opts, demo_clock::time_point now,
                    const report_file& report) {
  while (can_take_job(state, opts) && now >= state.next_start) {
    state.jobs_taken += 1;
    state.running.push_back(job{state.jobs_taken, now + to_duration(opts.job_seconds)});
    state.next_start = now + to_duration(opts.job_interval_seconds);
    say("job " + std::to_string(state.jobs_taken) + " started (lasts " +
        format_seconds(opts.job_seconds) + ", " + std::to_string(state.running.size()) +
        " running)");
    report.line("job_started " + std::to_string(state.jobs_taken));
  }
  assert(state.running.size() <= static_cast<std::size_t>(opts.concurrency));
}

// While jobs run, one line on stderr per progress_interval, as gitlab-runner keeps logging.
void write_progress(runner_state& state, demo_clock::time_point now) {
  if (state.running.empty() || now < state.next_progress) return;
  write_all(STDERR_FILENO, "demo-runner: " + std::to_string(state.running.size()) +
                               (state.draining ? " jobs running, draining\n" : " jobs running\n"));
  state.next_progress = now + progress_interval;
}

// The exit code if the runner is done: --exit-after elapsed, a drain completed, or every job
// of a --jobs total has finished.
std::optional<int> check_done(runner_state& state, const options& opts, demo_clock::time_point now,
                              const report_file& report) {
  if (state.exit_at && now >= *state.exit_at) {
    say("--exit-after elapsed, " + std::to_string(state.running.size()) + " jobs running");
    abort_jobs(state, report);
    return finish(report, opts.exit_code.value_or(exit_success));
  }
  if (!state.running.empty()) return std::nullopt;
  if (state.draining) {
    say("drained, all jobs finished");
    return finish(report, exit_success);
  }
  if (opts.jobs_total_max > 0 && state.jobs_taken >= opts.jobs_total_max) {
    say("all " + std::to_string(state.jobs_taken) + " jobs done");
    return finish(report, exit_success);
  }
  return std::nullopt;
}

std::optional<demo_clock::time_point> next_deadline(const runner_state& state,
                                                    const options& opts) {
  std::optional<demo_clock::time_point> deadline = state.exit_at;
  auto consider = [&deadline](demo_clock::time_point at) {
    if (!deadline || at < *deadline) deadline = at;
  };
  for (const job& running : state.running) consider(running.end);
  if (can_take_job(state, opts)) consider(state.next_start);
  if (!state.running.empty()) consider(state.next_progress);
  return deadline;
}

// Reacts to one signal; returns the exit code when it ends the runner.
std::optional<int> handle_signal(int signo, runner_state& state, const options& opts,
                                 const report_file& report) {
  std::string name = signal_name(signo);
  report.line("signal " + name);
  if (signo == SIGHUP) {
    say(name + ": reloading configuration");
    return std::nullopt;
  }
  if (opts.ignore_signals) {
    say(name + ": ignored (--ignore-signals)");
    return std::nullopt;
  }
  if (signo == SIGQUIT && !state.draining) {
    state.draining = true;
    say(name + ": graceful shutdown, taking no new jobs, waiting for " +
        std::to_string(state.running.size()) + " jobs");
    return std::nullopt;
  }
  say(name + ": forceful shutdown, aborting " + std::to_string(state.running.size()) + " jobs");
  std::size_t aborted = abort_jobs(state, report);
  return finish(report, aborted > 0 ? exit_jobs_aborted : exit_success);
}

// Sleeps until the deadline, a signal or a metrics request; answers the request, then
// handles every signal that arrived.
std::optional<int> wait_and_handle(int signal_fd, demo::metrics_endpoint* metrics,
                                   runner_state& state, const options& opts,
                                   demo_clock::time_point now, const report_file& report) {
  std::optional<demo_clock::time_point> deadline = next_deadline(state, opts);
  timespec timeout{};
  if (deadline) {
    auto remaining = std::max(*deadline - now, demo_clock::duration::zero());
    auto whole = std::chrono::duration_cast<std::chrono::seconds>(remaining);
    timeout.tv_sec = static_cast<std::time_t>(whole.count());
    timeout.tv_nsec = static_cast<long>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(remaining - whole).count());
  }
  pollfd poll_fds[2] = {{signal_fd, POLLIN, 0}, {metrics ? metrics->fd() : -1, POLLIN, 0}};
  int ready = ppoll(poll_fds, 2, deadline ? &timeout : nullptr, nullptr);
  if (ready <= 0) return std::nullopt;  // Deadline reached, or EINTR from a stop and continue.
  if (metrics && (poll_fds[1].revents & POLLIN)) {
    metrics->answer_one({.jobs_running = state.running.size(),
                         .concurrency = opts.concurrency,
                         .draining = state.draining});
  }
  if (!(poll_fds[0].revents & POLLIN)) return std::nullopt;
  signalfd_siginfo infos[signals_per_read_max];
  ssize_t got = ::read(signal_fd, infos, sizeof infos);
  if (got <= 0) return std::nullopt;
  std::size_t count = static_cast<std::size_t>(got) / sizeof(signalfd_siginfo);
  for (std::size_t i = 0; i < count; ++i) {
    auto code = handle_signal(static_cast<int>(infos[i].ssi_signo), state, opts, report);
    if (code) return code;
  }
  return std::nullopt;
}

int run_jobs(int signal_fd, demo::metrics_endpoint* metrics, const options& opts,
             const report_file& report) {
  runner_state state;
  demo_clock::time_point start = demo_clock::now();
  state.next_start = start;  // The first job starts at once, as gitlab-runner polls at start.
  if (opts.exit_after_seconds) state.exit_at = start + to_duration(*opts.exit_after_seconds);
  // Signals are read before jobs start (the wait returns at once when a start is due), so a
  // SIGQUIT that arrived during start-up drains before the first job rather than after it.
  for (;;) {
    demo_clock::time_point now = demo_clock::now();
    finish_due_jobs(state, now, report);
    if (auto code = check_done(state, opts, now, report)) return *code;
    write_progress(state, now);
    if (auto code = wait_and_handle(signal_fd, metrics, state, opts, now, report)) return *code;
    start_due_jobs(state, opts, demo_clock::now(), report);
  }
}

int open_report(const std::string& path) {
  if (path.empty()) return -1;
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

}  // namespace

int main(int argc, char** argv) {
  // The default action whatever the parent left (an ignored signal stays ignored across
  // exec, and a supervisor may ignore SIGPIPE itself): a broken output pipe ends it, as in Go.
  std::signal(SIGPIPE, SIG_DFL);
  // Signals are blocked before anything else, so one sent during start-up waits in the queue.
  int signal_fd = open_signal_fd();
  options opts;
  if (auto code = parse_options(argc, argv, opts)) return *code;
  if (signal_fd < 0) {
    std::fprintf(stderr, "demo-runner: signalfd: %s\n", std::strerror(errno));
    return exit_system;
  }
  report_file report(open_report(opts.report_path));
  if (!opts.report_path.empty() && report.fd() < 0) {
    std::fprintf(stderr, "demo-runner: open %s: %s\n", opts.report_path.c_str(),
                 std::strerror(errno));
    return exit_system;
  }
  report_start(opts, report);
  for (int i = 1; i <= opts.stderr_lines; ++i) {
    write_all(STDERR_FILENO, "demo-runner: stderr line " + std::to_string(i) + "\n");
  }
  if (opts.orphan_seconds) {
    pid_t orphan = spawn_orphan(*opts.orphan_seconds, signal_fd, report);
    if (orphan < 0) return finish(report, exit_system);
    say("spawned orphan " + std::to_string(orphan) + " (sleeps " +
        format_seconds(*opts.orphan_seconds) + ")");
    report.line("orphan " + std::to_string(orphan));
  }
  std::unique_ptr<demo::metrics_endpoint> metrics;
  if (!opts.listen_address.empty()) {
    std::string error;
    metrics = demo::metrics_endpoint::open(opts.listen_address, error);
    if (!metrics) {
      std::fprintf(stderr, "demo-runner: %s\n", error.c_str());
      return finish(report, exit_usage);
    }
    say("metrics on http://" + opts.listen_address + "/metrics");
  }
  say("ready, concurrency " + std::to_string(opts.concurrency) + ", pid " +
      std::to_string(getpid()));
  if (opts.exit_code && !opts.exit_after_seconds) return finish(report, *opts.exit_code);
  return run_jobs(signal_fd, metrics.get(), opts, report);
}

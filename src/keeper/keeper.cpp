// See keeper.hpp. One thread, one poll loop, no allocation after start but a spawn's
// arguments; every wait in it is bounded, and nothing in it blocks but poll itself.
#include "src/keeper/keeper.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "src/keeper/keeper_log.hpp"
#include "src/keeper/keeper_resume.hpp"
#include "src/keeper/keeper_timing.hpp"
#include "src/keeper/line_splitter.hpp"
#include "src/ports/os/gated_spawn.hpp"
#include "src/ports/os/service_manager.hpp"
#include "src/util/assert.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace protocol = keeper_protocol;

namespace {

using clock = std::chrono::steady_clock;

constexpr int forwarded_signals[] = {SIGTERM, SIGINT, SIGQUIT, SIGHUP};

bool is_forwarded(int signal_number) {
  return std::ranges::find(forwarded_signals, signal_number) != std::end(forwarded_signals);
}

sigset_t keeper_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (const int number : forwarded_signals) sigaddset(&set, number);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGUSR2);
  return set;
}

// A message sent to the warden that must not be lost while its link is momentarily full: a
// bounded queue. A warden that leaves it full is not reading, and is restarted.
class outbox {
 public:
  bool push(std::string_view message) {
    if (count_ == slots_.size() || message.size() > slot_bytes) return false;
    auto& slot = slots_[(first_ + count_++) % slots_.size()];
    std::memcpy(slot.bytes.data(), message.data(), message.size());
    slot.length = message.size();
    return true;
  }
  bool empty() const { return count_ == 0; }
  std::string_view front() const {
    const auto& slot = slots_[first_];
    return {slot.bytes.data(), slot.length};
  }
  void pop() {
    first_ = (first_ + 1) % slots_.size();
    --count_;
  }
  void clear() { first_ = count_ = 0; }

 private:
  static constexpr std::size_t slot_bytes = 512;
  struct slot {
    std::array<char, slot_bytes> bytes{};
    std::size_t length = 0;
  };
  std::array<slot, 64> slots_{};
  std::size_t first_ = 0;
  std::size_t count_ = 0;
};

// One of the runner's output pipes, and the bytes read from it that the link has not taken.
struct runner_pipe {
  int fd = -1;
  bool err = false;
  line_splitter lines;
  std::array<char, 4096> chunk{};
  std::size_t chunk_at = 0;
  std::size_t chunk_end = 0;
  bool waiting() const { return chunk_at < chunk_end; }
};

// How long the runner's output may wait for a full link before lines are dropped. Within it,
// the keeper reads no more (the runner's writes block, as they did on a pipe to the warden),
// so a burst reaches the log whole; past it, a warden that reads nothing costs lines, never
// the runner's progress.
constexpr std::chrono::seconds link_patience{2};
// Chunks read from one pipe in one turn of the loop, so that signals are never starved.
constexpr int chunks_per_turn = 16;

class keeper {
 public:
  keeper(int argc, char** argv, std::string warden_binary)
      : argv_(argv, argv + argc), path_(std::move(warden_binary)) {
    argv_.push_back(nullptr);
    pipes_[1].err = true;
  }
  int run();

 private:
  // The warden.
  void start_warden();
  void warden_ended(int wait_status);
  void read_link();
  void on_message(std::string_view message);
  void send_control(std::string_view message);
  void flush_outbox();
  void close_link();
  void kill_warden();
  // The runner.
  void spawn_runner(std::string_view rest);
  void release_runner(std::string_view rest);
  void signal_runner(std::string_view rest);
  void runner_ended(int wait_status);
  void pump(runner_pipe& pipe);
  bool relay_line(bool err, std::string_view line, bool may_wait);
  bool output_waiting() const;
  void tell_exit();
  void close_gate();
  // The keeper's own.
  void read_signals();
  void reap();
  void received(int signal_number);
  void acknowledged(std::string_view rest);
  void relay_notify(std::string_view text);
  void upgrade();
  int poll_timeout_ms(clock::time_point now) const;
  void on_timers(clock::time_point now);

  std::vector<char*> argv_;
  // runwarden's binary: every warden runs it, and an upgrade re-executes it, which execs the
  // keeper program beside it (keeper_program.hpp). After an upgrade it names the new one.
  std::string path_;
  keeper_log log_;
  keeper_timing timing_;
  int signals_fd_ = -1;
  // The warden of the moment.
  pid_t warden_ = -1;
  int link_ = -1;
  bool greeted_ = false;  // it said hello: it may be sent anything
  outbox outbox_;
  clock::time_point warden_started_{};
  clock::time_point ping_due_{};
  std::optional<clock::time_point> restart_at_;
  std::optional<int> exit_code_;  // set once the keeper is to end
  std::optional<int> gone_code_;  // the warden said gone: its exit code, should it die now
  // The runner.
  pid_t runner_ = -1;
  int gate_ = -1;
  std::array<runner_pipe, 2> pipes_{};  // stdout, stderr
  std::uint64_t dropped_lines_ = 0;
  std::optional<clock::time_point> link_full_since_;  // while a line waits for the link
  bool exit_untold_ = false;  // the runner ended; told once its last lines are handed on
  protocol::runner_report last_{};
  // Signals for the warden, kept until one says it has them.
  keeper_resume::signals pending_;
  std::uint64_t next_sequence_ = 1;
  std::array<char, protocol::message_bytes_max> buffer_{};
};

int keeper::run() {
  const auto mask = keeper_signals();
  ::sigprocmask(SIG_BLOCK, &mask, nullptr);  // kept blocked across an upgrade's exec
  signals_fd_ = ::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signals_fd_ < 0) return log_.error_exit("signalfd", errno, exit_software);
  if (::getpid() != 1 && ::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
    log_.line("cannot become a child subreaper; the runner's orphans go to init");
  if (auto resumed = keeper_resume::from_environment()) {
    runner_ = resumed->runner;
    pipes_[0].fd = resumed->stdout_fd;
    pipes_[1].fd = resumed->stderr_fd;
    last_ = resumed->last;
    pending_ = resumed->pending;
    next_sequence_ = resumed->next_sequence;
    log_.set_json(resumed->json_log);
    for (const auto& pipe : pipes_)
      if (pipe.fd >= 0) ::fcntl(pipe.fd, F_SETFD, FD_CLOEXEC);
    log_.line("re-executed for an upgrade; the runner (pid %d) ran on untouched", runner_);
  }
  reap();  // a child may have ended while no handler was there (an upgrade)
  start_warden();
  while (!exit_code_) {
    std::array<pollfd, 4> polled{};
    polled[0] = {signals_fd_, POLLIN, 0};
    const bool wants_out = !outbox_.empty() || output_waiting();
    polled[1] = {link_, static_cast<short>(POLLIN | (wants_out ? POLLOUT : 0)), 0};
    for (std::size_t i = 0; i < pipes_.size(); ++i)  // a pipe with bytes waiting is not read
      polled[2 + i] = {pipes_[i].waiting() ? -1 : pipes_[i].fd, POLLIN, 0};
    const int ready = ::poll(polled.data(), polled.size(), poll_timeout_ms(clock::now()));
    if (ready < 0 && errno != EINTR) return log_.error_exit("poll", errno, exit_software);
    if (polled[0].revents) read_signals();
    if (polled[1].revents & POLLOUT) flush_outbox();
    if (polled[1].revents & (POLLIN | POLLHUP | POLLERR)) read_link();
    for (std::size_t i = 0; i < pipes_.size(); ++i)
      if (polled[2 + i].revents || pipes_[i].waiting()) pump(pipes_[i]);
    if (exit_untold_ && !output_waiting()) tell_exit();
    on_timers(clock::now());
  }
  return *exit_code_;
}

int keeper::poll_timeout_ms(clock::time_point now) const {
  auto next = timing_.next_systemd_ping(now);
  if (restart_at_) next = std::min(next, *restart_at_);
  if (warden_ > 0) next = std::min(next, ping_due_);
  if (link_full_since_ && output_waiting())
    next = std::min(next, *link_full_since_ + link_patience);
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 60'000));
}

void keeper::on_timers(clock::time_point now) {
  if (timing_.systemd_ping_due(now)) (void)service_manager_notify("WATCHDOG=1");
  if (restart_at_ && now >= *restart_at_) {
    restart_at_.reset();
    start_warden();
  }
  if (warden_ > 0 && now >= ping_due_) {
    log_.line("the warden (pid %d) has not shown for %lld s that it can act; killing it", warden_,
              static_cast<long long>(timing_.warden_interval_s()));
    kill_warden();
    ping_due_ = clock::time_point::max();  // its end restarts it
  }
}

void keeper::start_warden() {
  int ends[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
    log_.line("socketpair: %s; trying again", std::strerror(errno));
    restart_at_ = clock::now() + timing_.restart_delay();
    return;
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    // The keeper has one thread: the child may set its environment before exec.
    const auto mask = keeper_signals();
    ::sigprocmask(SIG_UNBLOCK, &mask, nullptr);
    ::setpgid(0, 0);  // a terminal's ^C reaches the keeper only, which hands it on once
    ::fcntl(ends[1], F_SETFD, 0);
    ::setenv(protocol::link_variable, std::to_string(ends[1]).c_str(), 1);
    ::setenv(protocol::watchdog_variable, std::to_string(timing_.warden_interval_us()).c_str(), 1);
    for (const char* variable : {"NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"})
      ::unsetenv(variable);
    keeper_resume::clear_environment();
    ::execv(path_.c_str(), argv_.data());
    ::_exit(127);
  }
  ::close(ends[1]);
  if (pid < 0) {
    ::close(ends[0]);
    log_.line("fork: %s; trying again", std::strerror(errno));
    restart_at_ = clock::now() + timing_.restart_delay();
    return;
  }
  warden_ = pid;
  link_ = ends[0];
  ::fcntl(link_, F_SETFL, O_NONBLOCK);
  greeted_ = false;
  warden_started_ = clock::now();
  ping_due_ = warden_started_ + timing_.first_ping_within();
}

void keeper::warden_ended(int wait_status) {
  const pid_t pid = warden_;
  warden_ = -1;  // reaped: its pid may be anybody's now, and is never signalled
  // What it said last (gone, a release) is still in the link when its end is reaped in the
  // same turn of the loop: read before the link is closed.
  if (link_ >= 0) read_link();
  close_link();
  close_gate();  // a runner it never released never runs: its journal may not hold the pid
  const bool runner_live = runner_ > 0;
  if (WIFEXITED(wait_status) && !runner_live) {
    exit_code_ = WEXITSTATUS(wait_status);
    return;
  }
  // Killed after its drain was over (lingering, flushing a webhook): its journal is retired,
  // so a new warden would start a second runner on a machine that is going.
  if (gone_code_ && !runner_live) {
    log_.line("the warden (pid %d) ended after the runner was gone; exiting %d", pid, *gone_code_);
    exit_code_ = *gone_code_;
    return;
  }
  const bool lived_long = clock::now() - warden_started_ > keeper_timing::stable_after;
  if (lived_long) timing_.reset_backoff();
  if (!runner_live && timing_.gave_up()) {
    log_.line("the warden keeps failing with no runner to keep; giving up");
    exit_code_ = exit_software;
    return;
  }
  const auto delay = timing_.restart_delay();
  if (WIFSIGNALED(wait_status))
    log_.line("the warden (pid %d) was killed by signal %d; starting it again in %lld ms", pid,
              WTERMSIG(wait_status), static_cast<long long>(delay.count()));
  else
    log_.line(
        "the warden (pid %d) exited %d while the runner (pid %d) runs; starting it again "
        "in %lld ms",
        pid, WEXITSTATUS(wait_status), runner_, static_cast<long long>(delay.count()));
  restart_at_ = clock::now() + delay;
}

void keeper::kill_warden() {
  if (warden_ > 0) ::kill(warden_, SIGKILL);  // its end, when reaped, restarts it
}

void keeper::close_link() {
  if (link_ >= 0) ::close(link_);
  link_ = -1;
  greeted_ = false;
  outbox_.clear();
  link_full_since_.reset();
}

void keeper::read_link() {
  for (;;) {
    const auto n = ::recv(link_, buffer_.data(), buffer_.size(), MSG_DONTWAIT);
    if (n > 0) {
      on_message({buffer_.data(), static_cast<std::size_t>(n)});
      if (link_ < 0) return;
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    close_link();  // the warden is going: its end is reaped with it
    return;
  }
}

void keeper::on_message(std::string_view message) {
  const auto [kind, rest] = protocol::split(message);
  if (kind == "hello") {
    const auto hello = protocol::decode_hello(rest);
    if (!hello || hello->version != protocol::version) {
      log_.line("the warden speaks version %d of the keeper's protocol, not %d; killing it",
                hello ? hello->version : 0, protocol::version);
      kill_warden();
      return;
    }
    log_.set_json(hello->json_log);
    greeted_ = true;
    auto runner = last_;
    if (runner_ > 0) runner = {.state = protocol::runner_report::kind::running, .pid = runner_};
    send_control({buffer_.data(), protocol::encode_keeper_hello(buffer_, runner)});
    for (const auto& signal : pending_.items())  // a warden before this one may have it
      send_control(
          {buffer_.data(),
           protocol::encode_number_pair(
               buffer_, "resent", static_cast<std::int64_t>(signal.sequence), signal.number)});
  } else if (kind == "spawn") {
    if (warden_ > 0) spawn_runner(rest);  // a dead warden's could never release its runner
  } else if (kind == "release") {
    release_runner(rest);
  } else if (kind == "signal") {
    signal_runner(rest);
  } else if (kind == "notify") {
    relay_notify(rest);
  } else if (kind == "got") {
    acknowledged(rest);
  } else if (kind == "gone") {
    int code = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), code);
    if (error == std::errc{} && end == rest.data() + rest.size()) gone_code_ = code;
  } else {
    log_.line("the warden sent a message the keeper does not know; killing it");
    kill_warden();
  }
}

void keeper::send_control(std::string_view message) {
  RUNWARDEN_ASSERT(!message.empty());
  if (link_ < 0 || !greeted_) return;  // the next warden's hello tells it what it needs
  if (outbox_.empty() &&
      ::send(link_, message.data(), message.size(), MSG_DONTWAIT | MSG_NOSIGNAL) ==
          static_cast<ssize_t>(message.size()))
    return;
  if (!outbox_.push(message)) {
    log_.line("the warden (pid %d) reads nothing from the keeper; killing it", warden_);
    kill_warden();
  }
}

void keeper::flush_outbox() {
  while (link_ >= 0 && !outbox_.empty()) {
    const auto message = outbox_.front();
    const auto sent = ::send(link_, message.data(), message.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (sent < 0 && errno == EAGAIN) return;
    outbox_.pop();  // sent, or the link broke: its end closes it
  }
}

void keeper::spawn_runner(std::string_view rest) {
  const auto space = rest.find(' ');
  const auto mode = rest.substr(0, space);
  if (runner_ > 0 || space == std::string_view::npos) {
    send_control({buffer_.data(), protocol::encode_text(buffer_, "spawn_failed",
                                                        "16 the keeper has a runner already")});
    return;
  }
  std::vector<std::string> argv;
  for (auto args = rest.substr(space + 1); !args.empty();) {
    const auto end = args.find('\0');
    argv.emplace_back(args.substr(0, end));
    args.remove_prefix(end == std::string_view::npos ? args.size() : end + 1);
  }
  const bool capture = mode == "log";
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
  if (argv.empty() || (capture && (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0))) {
    const int error = argv.empty() ? EINVAL : errno;
    for (const int fd : {out[0], out[1], err[0], err[1]})
      if (fd >= 0) ::close(fd);
    char text[128];
    std::snprintf(text, sizeof text, "%d %s", error, std::strerror(error));
    send_control({buffer_.data(), protocol::encode_text(buffer_, "spawn_failed", text)});
    return;
  }
  auto child = spawn_gated(argv, out[1], err[1]);
  if (capture) {
    ::close(out[1]);
    ::close(err[1]);
  }
  if (child.pid < 0) {
    if (capture) {
      ::close(out[0]);
      ::close(err[0]);
    }
    const auto text = std::to_string(child.error_number) + " " + child.error;
    send_control({buffer_.data(), protocol::encode_text(buffer_, "spawn_failed", text)});
    return;
  }
  for (auto& pipe : pipes_)
    if (pipe.fd >= 0) ::close(pipe.fd);  // a former runner's, still held by its orphans
  pipes_[0].fd = capture ? out[0] : -1;
  pipes_[1].fd = capture ? err[0] : -1;
  for (const auto& pipe : pipes_)  // the keeper's ends only: the runner's stay blocking
    if (pipe.fd >= 0) ::fcntl(pipe.fd, F_SETFL, O_NONBLOCK);
  runner_ = child.pid;
  gate_ = child.gate;
  last_ = {};
  timing_.reset_backoff();
  send_control({buffer_.data(), protocol::encode_number_pair(buffer_, "spawned", runner_, 0)});
}

void keeper::release_runner(std::string_view rest) {
  const auto asked = protocol::decode_number_pair(rest);
  if (!asked || asked->first != runner_ || gate_ < 0) return;
  if (asked->second != 0) {
    (void)open_gate(gate_);  // one gone already is reported by its reaping, as any end
    gate_ = -1;
  } else {
    close_gate();
  }
}

void keeper::signal_runner(std::string_view rest) {
  const auto asked = protocol::decode_number_pair(rest);
  // Only the runner this keeper spawned and has not reaped: a pid from anywhere else (an
  // old journal, a forged one) may be anybody's by now.
  if (!asked || asked->first != runner_ || runner_ <= 0) return;
  const int number = static_cast<int>(asked->second);
  if (::kill(-runner_, number) == 0 || ::kill(runner_, number) == 0)
    send_control(
        {buffer_.data(), protocol::encode_number_pair(buffer_, "delivered", runner_, number)});
}

void keeper::close_gate() {
  if (gate_ >= 0) ::close(gate_);
  gate_ = -1;
}

void keeper::runner_ended(int wait_status) {
  const bool signaled = WIFSIGNALED(wait_status);
  last_ = {.state = protocol::runner_report::kind::exited,
           .pid = runner_,
           .signaled = signaled,
           .code = signaled ? WTERMSIG(wait_status) : WEXITSTATUS(wait_status)};
  runner_ = -1;
  close_gate();
  // What it wrote last is handed on before its end is told: the warden ends soon after.
  for (auto& pipe : pipes_) pump(pipe);
  exit_untold_ = true;
  if (!output_waiting()) tell_exit();
}

void keeper::tell_exit() {
  exit_untold_ = false;
  send_control(
      {buffer_.data(), protocol::encode_exited(buffer_, {last_.pid, last_.signaled, last_.code})});
}

bool keeper::output_waiting() const {
  return std::ranges::any_of(pipes_, [](const runner_pipe& pipe) { return pipe.waiting(); });
}

void keeper::pump(runner_pipe& pipe) {
  const auto relay = [this, &pipe](std::string_view line) {
    return relay_line(pipe.err, line, true);
  };
  for (int turn = 0; turn < chunks_per_turn; ++turn) {
    if (pipe.waiting()) {
      pipe.chunk_at += pipe.lines.feed(
          {pipe.chunk.data() + pipe.chunk_at, pipe.chunk_end - pipe.chunk_at}, relay);
      if (pipe.waiting()) return;  // the link is full: read no more for now
    }
    if (pipe.fd < 0) return;
    const auto n = ::read(pipe.fd, pipe.chunk.data(), pipe.chunk.size());
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
      pipe.lines.finish(
          [this, &pipe](std::string_view line) { return relay_line(pipe.err, line, false); });
      ::close(pipe.fd);
      pipe.fd = -1;
      return;
    }
    pipe.chunk_at = 0;
    pipe.chunk_end = static_cast<std::size_t>(n);
  }
}

bool keeper::relay_line(bool err, std::string_view line, bool may_wait) {
  const pid_t pid = runner_ > 0 ? runner_ : static_cast<pid_t>(last_.pid);
  std::array<char, protocol::message_bytes_max> message{};
  const auto length = protocol::encode_line(message, err, pid, dropped_lines_, line);
  // Without a warden that has said hello, a line is dropped and counted at once; the count
  // goes with the next line that gets through. A full link holds the line for a while.
  if (link_ < 0 || !greeted_ || length == 0) {
    ++dropped_lines_;
    return true;
  }
  if (outbox_.empty() && ::send(link_, message.data(), length, MSG_DONTWAIT | MSG_NOSIGNAL) ==
                             static_cast<ssize_t>(length)) {
    dropped_lines_ = 0;
    link_full_since_.reset();
    return true;
  }
  const auto now = clock::now();
  if (!link_full_since_) link_full_since_ = now;
  if (may_wait && now - *link_full_since_ < link_patience) return false;
  ++dropped_lines_;
  return true;
}

void keeper::read_signals() {
  signalfd_siginfo info{};
  while (::read(signals_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    const int number = static_cast<int>(info.ssi_signo);
    if (number == SIGCHLD) {
      reap();
    } else if (number == SIGUSR2) {
      upgrade();
    } else if (is_forwarded(number)) {
      received(number);
    }
  }
}

void keeper::reap() {
  for (;;) {
    int wait_status = 0;
    const pid_t pid = ::waitpid(-1, &wait_status, WNOHANG);
    if (pid <= 0) return;
    if (pid == runner_)
      runner_ended(wait_status);
    else if (pid == warden_)
      warden_ended(wait_status);
    // else an orphan of the runner's, adopted by the subreaper: nothing to tell
  }
}

void keeper::received(int signal_number) {
  const auto sequence = next_sequence_++;
  if (!pending_.add(sequence, signal_number)) {
    log_.line("signal %d: too many signals not yet taken by the warden; this one is dropped",
              signal_number);
    return;
  }
  send_control(
      {buffer_.data(), protocol::encode_number_pair(
                           buffer_, "signal", static_cast<std::int64_t>(sequence), signal_number)});
}

void keeper::acknowledged(std::string_view rest) {
  std::uint64_t sequence = 0;
  const auto [next, error] = std::from_chars(rest.data(), rest.data() + rest.size(), sequence);
  if (error == std::errc{} && next == rest.data() + rest.size()) pending_.remove(sequence);
}

void keeper::relay_notify(std::string_view text) {
  // WATCHDOG=1 is the warden's proof to the keeper; systemd hears the keeper's own.
  std::array<char, 1024> forwarded{};
  std::size_t length = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const auto line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line == "WATCHDOG=1") {
      ping_due_ = clock::now() + timing_.warden_interval();
      continue;
    }
    if (length + line.size() + 1 >= forwarded.size()) break;
    if (length > 0) forwarded[length++] = '\n';
    std::memcpy(forwarded.data() + length, line.data(), line.size());
    length += line.size();
  }
  if (length > 0) (void)service_manager_notify(forwarded.data());
}

void keeper::upgrade() {
  log_.line("SIGUSR2: re-executing %s; the runner keeps running", path_.c_str());
  if (warden_ > 0) {
    ::kill(warden_, SIGKILL);  // its journal holds everything; the new one recovers from it
    int ignored = 0;
    ::waitpid(warden_, &ignored, 0);
    warden_ = -1;
    close_link();
    close_gate();
  }
  keeper_resume::state state{.runner = runner_,
                             .stdout_fd = pipes_[0].fd,
                             .stderr_fd = pipes_[1].fd,
                             .last = last_,
                             .pending = pending_,
                             .next_sequence = next_sequence_,
                             .json_log = log_.json()};
  keeper_resume::to_environment(state);
  for (const auto& pipe : pipes_)
    if (pipe.fd >= 0) ::fcntl(pipe.fd, F_SETFD, 0);
  ::execv(path_.c_str(), argv_.data());
  log_.line("re-executing %s failed: %s; going on as before", path_.c_str(), std::strerror(errno));
  keeper_resume::clear_environment();
  for (const auto& pipe : pipes_)
    if (pipe.fd >= 0) ::fcntl(pipe.fd, F_SETFD, FD_CLOEXEC);
  start_warden();
}

}  // namespace

bool wants_keeper(int argc, char** argv) {
  if (argc < 2 || std::getenv(protocol::link_variable) != nullptr) return false;
  const std::string_view command = argv[1];
  return command == "run" || command == "wrapper";
}

int run_keeper(int argc, char** argv, std::string warden_binary) {
  // Large buffers: not on the stack.
  static keeper the_keeper{argc, argv, std::move(warden_binary)};
  return the_keeper.run();
}

}  // namespace runwarden

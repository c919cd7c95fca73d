// See child_process_host.hpp.
#include "src/ports/os/child_process_host.hpp"

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "messages/warden_messages.hpp"
#include "src/logging/logging.hpp"
#include "src/ports/os/gated_spawn.hpp"
#include "src/ports/os/process_identity_probe.hpp"
#include "src/ports/os/runner_custody.hpp"

namespace runwarden {

namespace {

// A runner printing one enormous line must not grow the log buffer without bound.
constexpr std::size_t output_line_bytes_max = 16 * 1024;

exit_status exit_status_of(int wait_status) {
  if (WIFSIGNALED(wait_status)) return exit_status{true, WTERMSIG(wait_status)};
  return exit_status{false, WEXITSTATUS(wait_status)};
}

}  // namespace

// Reads one of the runner's output pipes and logs it line by line.
class child_process_host::output_pump : public std::enable_shared_from_this<output_pump> {
 public:
  output_pump(boost::asio::io_context& context, int fd, const char* stream, pid_t pid)
      : pipe_(context, fd), stream_(stream), pid_(pid) {}

  void start() { read_more(); }
  void close() {
    boost::system::error_code ignored;
    pipe_.close(ignored);
  }
  // The descriptor, no longer read here (its pending read ends as cancelled).
  int release() {
    boost::system::error_code ignored;
    pipe_.cancel(ignored);
    return pipe_.is_open() ? pipe_.release() : -1;
  }

 private:
  void read_more() {
    pipe_.async_read_some(
        boost::asio::buffer(chunk_),
        [self = shared_from_this()](boost::system::error_code error, std::size_t n) {
          self->take(n);
          if (error) {
            self->flush_partial_line();
            return;
          }
          self->read_more();
        });
  }

  void take(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      const char c = chunk_[i];
      if (c == '\n') {
        log_line();
      } else {
        line_.push_back(c);
        if (line_.size() >= output_line_bytes_max) log_line();
      }
    }
  }

  void flush_partial_line() {
    if (!line_.empty()) log_line();
  }

  void log_line() {
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    runner_logger()->info("[{} {}] {}", stream_, pid_, line_);
    line_.clear();
  }

  boost::asio::posix::stream_descriptor pipe_;
  const char* stream_;
  pid_t pid_;
  std::array<char, 4096> chunk_{};
  std::string line_;
};

child_process_host::child_process_host(boost::asio::io_context& context, runner_command command,
                                       child_reaping reaping)
    : context_(context),
      command_(std::move(command)),
      reaping_(reaping),
      // Its handler never runs once the watch is gone, so `this` is safe there.
      child_ends_(context, [this](pid_t pid) { reap_child(pid); }) {
  if (reaping_ == child_reaping::every_child) child_signals_.emplace(context, SIGCHLD);
}

void child_process_host::start() {
  if (reaping_ == child_reaping::runner_only) return;  // each child is watched by its pidfd
  boost::asio::post(context_, [self = shared_from_this()] {
    self->wait_for_children();
    // A child may have died before the handler was in place.
    self->reap_children();
  });
}

void child_process_host::spawn(caf::actor notify) {
  boost::asio::post(context_, [self = shared_from_this(), notify = std::move(notify)] {
    self->do_spawn(notify);
  });
}

void child_process_host::signal_group(std::int64_t pid, int signal_number, caf::actor notify) {
  boost::asio::post(context_,
                    [self = shared_from_this(), pid, signal_number, notify = std::move(notify)] {
                      // Adoption runs first (both are posted in order): a pid it refused is never
                      // signalled.
                      if (pid <= 0 || (pid != self->runner_pid_ && pid != self->adopted_pid_)) {
                        if (pid == self->ended_runner_pid_)
                          return;  // it ended; its end is on its way
                        warden_logger()->error(
                            "not signalling pid {}: it is no runner this runwarden started or "
                            "proved to be the one it started",
                            pid);
                        return;
                      }
                      // The whole group, so the runner's helpers hear it too; the runner alone if
                      // the group is already gone.
                      const bool delivered = ::kill(-static_cast<pid_t>(pid), signal_number) == 0 ||
                                             ::kill(static_cast<pid_t>(pid), signal_number) == 0;
                      if (delivered)
                        caf::anon_send(notify, runner_signal_delivered{pid, signal_number});
                    });
}

void child_process_host::adopt(std::int64_t pid, const process_identity& identity,
                               caf::actor notify) {
  boost::asio::post(context_, [self = shared_from_this(), pid, identity,
                               notify = std::move(notify)] {
    if (auto taken = runner_custody::take(static_cast<pid_t>(pid))) {
      self->take_back(static_cast<pid_t>(pid), *taken, notify);  // our own child: proved
      return;
    }
    const auto gone = [self, pid, notify] {
      if (self->adopted_pid_ == pid) {
        self->adopted_pid_ = -1;
        self->ended_runner_pid_ = static_cast<pid_t>(pid);
      }
      warden_logger()->warn("the runner from before (pid {}) ended; its exit status is unknown",
                            pid);
      caf::anon_send(notify, runner_exited{pid, exit_status{.unknown = true}});
    };
    // Opened first: from here on the pidfd names this process even if the pid is reused.
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, static_cast<pid_t>(pid), 0));
    if (pidfd < 0) {
      gone();  // ESRCH: it ended while runwarden was away
      return;
    }
    if (const auto problem = identity_problem(static_cast<pid_t>(pid), identity);
        !problem.empty()) {
      ::close(pidfd);
      warden_logger()->error(
          "the journal names pid {} as the runner, but {}: not adopting it "
          "and never signalling it; the runner from before is taken as "
          "ended, its exit status unknown",
          pid, problem);
      caf::anon_send(notify, runner_exited{pid, exit_status{.unknown = true}});
      return;
    }
    warden_logger()->info("watching the runner from before, pid {}", pid);
    self->adopted_pid_ = static_cast<pid_t>(pid);
    self->adopted_ = std::make_unique<boost::asio::posix::stream_descriptor>(self->context_, pidfd);
    self->adopted_->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                               [gone](const boost::system::error_code& error) {
                                 if (error != boost::asio::error::operation_aborted) gone();
                               });
  });
}

void child_process_host::take_back(pid_t pid, const runner_custody::taken_runner& taken,
                                   const caf::actor& notify) {
  notify_ = notify;
  if (taken.dropped_lines > 0)
    warden_logger()->warn("{} lines of the runner's output were dropped while no instance ran",
                          taken.dropped_lines);
  if (taken.ended) {
    for (const int fd : {taken.stdout_fd, taken.stderr_fd})
      if (fd >= 0) ::close(fd);
    warden_logger()->info("the runner from before (pid {}) ended meanwhile: {}", pid,
                          to_string(*taken.ended));
    caf::anon_send(notify, runner_exited{pid, *taken.ended});
    return;
  }
  warden_logger()->info("the runner from before (pid {}) still runs; watching it", pid);
  runner_pid_ = pid;
  children_.push_back(pid);
  pumps_.clear();
  if (taken.stdout_fd >= 0)
    pumps_.push_back(std::make_shared<output_pump>(context_, taken.stdout_fd, "stdout", pid));
  if (taken.stderr_fd >= 0)
    pumps_.push_back(std::make_shared<output_pump>(context_, taken.stderr_fd, "stderr", pid));
  for (auto& pump : pumps_) pump->start();
  // It may have ended between custody's last look and now: a pidfd is readable at once then.
  if (reaping_ == child_reaping::runner_only)
    watch_child(pid);
  else
    reap_children();
}

void child_process_host::stop() {
  boost::asio::post(context_, [self = shared_from_this()] {
    if (self->adopted_) self->adopted_->close();
    self->close_gate();  // a runner not yet released never runs
    boost::system::error_code ignored;
    if (self->child_signals_) self->child_signals_->cancel(ignored);
    self->child_ends_.forget_all();
    // The runner is left running (instance.hpp): its pipes go into custody, which reads
    // them and reaps it until a later instance takes it back. Only a host that reaps its
    // runner by pid keeps it; runwarden run's own (every_child) has no later instance.
    const bool leave = self->runner_pid_ > 0 && self->reaping_ == child_reaping::runner_only;
    runner_custody::left_runner left{.pid = self->runner_pid_};
    for (std::size_t i = 0; i < self->pumps_.size(); ++i) {
      if (!leave) {
        self->pumps_[i]->close();
        continue;
      }
      (i == 0 ? left.stdout_fd : left.stderr_fd) = self->pumps_[i]->release();
    }
    self->pumps_.clear();
    if (leave) runner_custody::leave(left);
  });
}

void child_process_host::do_spawn(const caf::actor& notify) {
  notify_ = notify;
  close_gate();  // a runner never released (should not be): it ends unrun
  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  const bool capture = command_.output == output_mode::log;
  if (capture && (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0)) {
    const int error = errno;
    caf::anon_send(notify,
                   runner_spawn_failed{error, std::string{"pipe: "} + std::strerror(error)});
    return;
  }
  auto child = spawn_gated(command_.argv, out_pipe[1], err_pipe[1]);
  if (capture) {
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
  }
  if (child.pid < 0) {
    if (capture) {
      ::close(out_pipe[0]);
      ::close(err_pipe[0]);
    }
    caf::anon_send(notify, runner_spawn_failed{child.error_number, child.error});
    return;
  }
  runner_pid_ = child.pid;
  children_.push_back(child.pid);
  if (reaping_ == child_reaping::runner_only) watch_child(child.pid);
  gate_ = child.gate;
  if (capture) {
    pumps_.clear();
    pumps_.push_back(std::make_shared<output_pump>(context_, out_pipe[0], "stdout", child.pid));
    pumps_.push_back(std::make_shared<output_pump>(context_, err_pipe[0], "stderr", child.pid));
    for (auto& pump : pumps_) pump->start();
  }
  // Read now, while the child waits at its gate: unreaped, its pid cannot name another.
  caf::anon_send(
      notify,
      runner_spawned{child.pid, read_process_identity(child.pid).value_or(process_identity{})});
}

void child_process_host::release(std::int64_t pid, bool go) {
  boost::asio::post(context_, [self = shared_from_this(), pid, go] {
    if (pid != self->runner_pid_ || self->gate_ < 0) return;
    if (!go) {
      // Not ours to watch any more: its end is reaped as an orphan's (children_ keeps it).
      self->runner_pid_ = -1;
      self->close_gate();
      return;
    }
    // A runner gone before its release is reported by the reaper, as any exit.
    (void)open_gate(self->gate_);
    self->gate_ = -1;
  });
}

void child_process_host::close_gate() {
  if (gate_ < 0) return;
  ::close(gate_);
  gate_ = -1;
}

void child_process_host::wait_for_children() {
  child_signals_->async_wait([self = shared_from_this()](boost::system::error_code error, int) {
    if (error) return;
    self->reap_children();
    self->wait_for_children();
  });
}

void child_process_host::reap_children() {
  if (reaping_ == child_reaping::every_child) {
    for (;;) {
      int wait_status = 0;
      const pid_t pid = ::waitpid(-1, &wait_status, WNOHANG);
      if (pid <= 0) return;  // None left to reap now (0), or no children at all (-1).
      reaped(pid, wait_status);
    }
  }
  const auto spawned = children_;  // reaped() removes from children_
  for (const pid_t child : spawned) {
    int wait_status = 0;
    if (::waitpid(child, &wait_status, WNOHANG) == child) reaped(child, wait_status);
  }
}

void child_process_host::watch_child(pid_t pid) {
  if (!child_ends_.watch(pid)) reap_child(pid);  // ESRCH: reaped by someone else already
}

void child_process_host::reap_child(pid_t pid) {
  int wait_status = 0;
  const pid_t waited = ::waitpid(pid, &wait_status, WNOHANG);
  if (waited == pid) {
    reaped(pid, wait_status);
    return;
  }
  if (waited == 0) {  // not ended after all (cannot happen with a readable pidfd): wait on
    watch_child(pid);
    return;
  }
  // ECHILD: the host reaped it (waitpid(-1) in its own SIGCHLD handler) or ignores SIGCHLD,
  // so the kernel did; the end is known, how it ended is not.
  std::erase(children_, pid);
  if (pid != runner_pid_) return;
  runner_pid_ = -1;
  ended_runner_pid_ = pid;
  close_gate();
  warden_logger()->warn(
      "the runner (pid {}) ended and was reaped by someone else (a waitpid "
      "for any child, or SIGCHLD ignored): its exit status is unknown",
      pid);
  caf::anon_send(notify_, runner_exited{pid, exit_status{.unknown = true}});
}

void child_process_host::reaped(pid_t pid, int wait_status) {
  std::erase(children_, pid);
  if (pid == runner_pid_) {
    runner_pid_ = -1;
    ended_runner_pid_ = pid;
    close_gate();
    caf::anon_send(notify_, runner_exited{pid, exit_status_of(wait_status)});
  } else {
    warden_logger()->debug("reaped orphaned process {} ({})", pid,
                           to_string(exit_status_of(wait_status)));
  }
}

}  // namespace runwarden

// See runner_custody.hpp. A thread polls an eventfd (custody changed), each runner's pidfd
// and its pipes; every change of the map happens under one mutex, and the thread looks each
// ready descriptor's runner up again under it, so a runner taken back meanwhile is left alone.
#include "src/ports/os/runner_custody.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace runwarden::runner_custody {

namespace {

struct held_runner {
  int pidfd = -1;
  std::array<int, 2> pipes{-1, -1};
  std::optional<exit_status> ended;
  std::uint64_t dropped_lines = 0;
};

exit_status status_of(int wait_status) {
  if (WIFSIGNALED(wait_status)) return exit_status{true, WTERMSIG(wait_status)};
  return exit_status{false, WEXITSTATUS(wait_status)};
}

class custody {
 public:
  static custody& instance() {
    static custody* the_custody = new custody;  // lives, with its thread, until the exit
    return *the_custody;
  }

  void leave(left_runner runner) {
    const std::lock_guard lock{mutex_};
    auto& held = runners_[runner.pid];
    held.pidfd = static_cast<int>(::syscall(SYS_pidfd_open, runner.pid, 0));
    held.pipes = {runner.stdout_fd, runner.stderr_fd};
    if (!thread_started_) {
      std::thread{[this] { serve(); }}.detach();
      thread_started_ = true;
    }
    wake();
  }

  std::optional<taken_runner> take(pid_t pid) {
    const std::lock_guard lock{mutex_};
    const auto found = runners_.find(pid);
    if (found == runners_.end()) return std::nullopt;
    auto held = found->second;
    runners_.erase(found);
    if (held.pidfd >= 0) ::close(held.pidfd);
    wake();
    return taken_runner{held.pipes[0], held.pipes[1], held.ended, held.dropped_lines};
  }

 private:
  custody() : wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

  void wake() {
    const std::uint64_t one = 1;
    (void)!::write(wake_fd_, &one, sizeof one);
  }

  struct watched {
    pid_t pid;
    int slot;  // 0, 1: a pipe; 2: the pidfd
  };

  void serve() {
    std::vector<pollfd> polled;
    std::vector<watched> owners;
    for (;;) {
      polled.assign(1, pollfd{wake_fd_, POLLIN, 0});
      owners.assign(1, watched{-1, -1});
      {
        const std::lock_guard lock{mutex_};
        for (const auto& [pid, held] : runners_) {
          for (int slot = 0; slot < 2; ++slot)
            if (held.pipes[slot] >= 0) {
              polled.push_back({held.pipes[slot], POLLIN, 0});
              owners.push_back({pid, slot});
            }
          if (held.pidfd >= 0 && !held.ended) {
            polled.push_back({held.pidfd, POLLIN, 0});
            owners.push_back({pid, 2});
          }
        }
      }
      if (::poll(polled.data(), polled.size(), -1) < 0) continue;  // EINTR
      std::uint64_t ignored = 0;
      (void)!::read(wake_fd_, &ignored, sizeof ignored);
      const std::lock_guard lock{mutex_};
      for (std::size_t i = 1; i < polled.size(); ++i) {
        if (polled[i].revents == 0) continue;
        const auto found = runners_.find(owners[i].pid);
        if (found == runners_.end()) continue;  // taken back meanwhile
        auto& held = found->second;
        if (owners[i].slot == 2)
          reap(owners[i].pid, held);
        else
          drain(held, owners[i].slot);
      }
    }
  }

  static void reap(pid_t pid, held_runner& held) {
    int wait_status = 0;
    if (::waitpid(pid, &wait_status, WNOHANG) == pid)
      held.ended = status_of(wait_status);
    else if (errno == ECHILD)
      held.ended = exit_status{.unknown = true};  // reaped elsewhere
    else
      return;
    ::close(held.pidfd);
    held.pidfd = -1;
  }

  static void drain(held_runner& held, int slot) {
    std::array<char, 4096> chunk{};
    const auto n = ::read(held.pipes[slot], chunk.data(), chunk.size());
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
      ::close(held.pipes[slot]);
      held.pipes[slot] = -1;
      return;
    }
    held.dropped_lines +=
        static_cast<std::uint64_t>(std::count(chunk.begin(), chunk.begin() + n, '\n'));
  }

  std::mutex mutex_;
  std::map<pid_t, held_runner> runners_;
  int wake_fd_;
  bool thread_started_ = false;
};

}  // namespace

void leave(left_runner runner) { custody::instance().leave(runner); }

std::optional<taken_runner> take(pid_t pid) { return custody::instance().take(pid); }

}  // namespace runwarden::runner_custody

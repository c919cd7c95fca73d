#pragma once
// The runner's process as the OS sees it, living on the io thread: spawn with arguments
// byte for byte in a process group of its own, forward signals to that group, capture
// stdout and stderr line by line into the log, and reap every child that dies, the
// runner's orphaned grandchildren included (runwarden is PID 1 or a child subreaper).
// Results go to the actor that asked, as drain machine events.
//
// A spawned runner waits at a start gate until release(pid, true): the warden releases it
// once its journal holds the pid. A runwarden killed in between (kill -9) closes the gate
// with its death, and the waiting child ends without ever running the command; otherwise a
// runwarden restarted from a journal without the pid would start a second runner beside a
// first one nobody drains.

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "caf/actor.hpp"
#include "src/config/settings.hpp"
#include "src/ports/os/pidfd_watch.hpp"
#include "src/ports/os/runner_custody.hpp"
#include "src/ports/os/runner_host.hpp"

namespace runwarden {

// Which dead children the host reaps. runwarden run is a child subreaper (or PID 1), so
// every child that dies is its own to reap, the runner's orphaned grandchildren included: it
// hears SIGCHLD. A program that embeds runwarden has children of its own, a SIGCHLD
// disposition of its own, and may run several instances: there each instance learns of its
// runner's end through a pidfd (pidfd_watch.hpp), never touches SIGCHLD, and reaps its
// runner only, by pid, leaving the rest to their parents.
enum class child_reaping : std::uint8_t { every_child, runner_only };

struct runner_command {
  std::vector<std::string> argv;
  output_mode output = output_mode::log;
};

class child_process_host : public runner_host,
                           public std::enable_shared_from_this<child_process_host> {
 public:
  child_process_host(boost::asio::io_context& context, runner_command command,
                     child_reaping reaping);

  // Starts reaping.
  void start() override;
  void spawn(caf::actor notify) override;
  void release(std::int64_t pid, bool go) override;
  // Signals once kill() returned success; only the runner spawned, taken back or adopted
  // here: any other pid is refused with a log line and never signalled.
  void signal_group(std::int64_t pid, int signal_number, caf::actor notify) override;
  // A runner left by an instance of this process that stopped (runner_custody.hpp) is taken
  // back, with its real exit status. Any other is not our child: it is adopted only when
  // the process behind the pid has the identity the journal recorded (a forged or stale
  // journal, or a pid reused since, is refused with a log line, and the runner from before
  // is taken as ended); its exit is seen through a pidfd and its exit status stays unknown.
  void adopt(std::int64_t pid, const process_identity& identity, caf::actor notify) override;
  // Leaves the runner running: an embedding host's runner goes into custody.
  void stop() override;

 private:
  class output_pump;
  void do_spawn(const caf::actor& notify);
  void take_back(pid_t pid, const runner_custody::taken_runner& taken, const caf::actor& notify);
  void close_gate();
  void wait_for_children();
  void reap_children();
  // runner_only: watches `pid` (a child of this process) until it ends, then reaps it.
  void watch_child(pid_t pid);
  void reap_child(pid_t pid);
  void reaped(pid_t pid, int wait_status);

  boost::asio::io_context& context_;
  runner_command command_;
  child_reaping reaping_;
  std::optional<boost::asio::signal_set> child_signals_;  // every_child only
  pidfd_watch child_ends_;                                // runner_only
  pid_t runner_pid_ = -1;
  pid_t adopted_pid_ = -1;  // a runner from before, proved by its identity, while watched
  // The last runner reaped here: a late signal for it is no news.
  pid_t ended_runner_pid_ = -1;
  std::vector<pid_t> children_;  // spawned here and not reaped yet: what runner_only reaps
  int gate_ = -1;                // runwarden's end of the runner's start gate, until released
  caf::actor notify_;
  std::vector<std::shared_ptr<output_pump>> pumps_;
  std::unique_ptr<boost::asio::posix::stream_descriptor> adopted_;  // a pidfd, while one is watched
};

}  // namespace runwarden

#pragma once
// One runwarden instance inside a host program's own CAF actor system: it supervises the
// configured runner, drains it on request (and on the cloud's lifecycle notices, as the
// config says), journals every step in its state directory and comes back from the journal
// after a crash, exactly as `runwarden run` does; both build the instance in one place.
//
// What runwarden needs from the host's actor_system (CAF 0.17):
// - No message types to register: runwarden's messages, and embedded::status, are local
//   only (CAF_ALLOW_UNSAFE_MESSAGE_TYPE), so add_message_type is not needed for them.
// - Any scheduler policy that runs on threads ("stealing", CAF's default, or "sharing",
//   which runwarden run uses since it sleeps when idle): runwarden's actors never block; its
//   blocking work (the runner's process, signals, HTTP) runs on threads of its own. The
//   "testing" policy is not supported: those threads would escape it.
// - The system outlives the instance: call stop() before the system goes away.
// runwarden leaves the host's signals alone, SIGCHLD included: a host that wants SIGTERM to
// drain the runner calls request_shutdown from its handler's thread, not from the handler
// itself. runwarden learns of its runner's end through a pidfd (Linux 5.3 or later) and
// reaps its own runner only, by pid, so a host keeps any SIGCHLD handler it likes and
// waits for its children by pid (waitpid(pid, ...)) or pidfd, and several instances may
// run side by side. A host that reaps any child (waitpid(-1, ...)) or ignores SIGCHLD takes
// the runner's exit status away: its end is then reported with exit_unknown.
//
// Log lines go to stderr as the config's [log] table says, or to the host's sink
// (config::set_log_sink).
//
// Threads: every member may be called from any thread that is not a CAF worker, except
// subscribe and request_shutdown, which never block and may be called from actors too.

#include <chrono>
#include <memory>
#include <string>

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include "runwarden/config.hpp"
#include "runwarden/status.hpp"

namespace runwarden::embedded {

class instance {
 public:
  struct started;

  // Checks the config in full (as runwarden run does), locks the state directory (a second
  // instance on it, in this process or another, is refused with an error naming the lock),
  // starts the runner and runwarden's actors. Fails with a message naming the problem.
  static started start(caf::actor_system& system, const config& settings);

  instance(instance&&) noexcept;
  instance& operator=(instance&&) noexcept;  // stops the instance it replaces first
  ~instance();                               // stop()

  // The current status; nullopt when no answer came within `wait_max` (taken from zero to
  // ten years).
  std::optional<status> current_status(std::chrono::milliseconds wait_max = std::chrono::seconds{
                                           5}) const;

  // `listener` receives a status now and one at every change, until it goes down. The first
  // status with state gone is the last it receives: a listener hears gone once.
  void subscribe(const caf::actor& listener) const;

  // Empty when the request went to runwarden; otherwise what is wrong with it (a reason
  // longer than 1024 bytes or not one line, a deadline below zero or past 30 days, as the
  // control API refuses them; a runner gone already, "the runner is gone already: nothing
  // to shut down"; or a stopped instance), and nothing changed. The drain's trigger is
  // shutdown_trigger::host.
  std::string request_shutdown(shutdown_request request) const;

  // Ends runwarden's actors and threads. The runner is left running: to let it go, request
  // a shutdown and wait for the status gone first. Until a later start() on the same state
  // directory adopts it, this process stays its parent: one thread of runwarden's reads its
  // output (dropped, counted) so that it neither blocks nor dies of SIGPIPE, and reaps it
  // when it ends; the adopting instance then knows its real exit status. Safe to call twice.
  void stop();

 private:
  struct running;
  explicit instance(std::unique_ptr<running> state);
  std::unique_ptr<running> running_;
};

struct instance::started {
  std::optional<runwarden::embedded::instance> instance;  // set exactly when error is empty
  std::string error;
};

}  // namespace runwarden::embedded

#pragma once
// The logind side of `runwarden run` ([run] inhibit_shutdown): the shutdown inhibitor actor
// follows the warden on a thread of its own and holds a logind delay lock for shutdown while
// jobs run (actors/shutdown_inhibitor), and logind's PrepareForShutdown(true) starts a drain
// (src/ports/os/logind_shutdown_watch.hpp), as SIGTERM would, so that the runner stops taking
// jobs and the lock goes once the last one ends. Off, nothing is spawned and the bus is never
// opened.

#include <memory>
#include <optional>

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"
#include "src/ports/os/logind_shutdown_watch.hpp"

namespace runwarden {

class shutdown_inhibitor_link {
 public:
  // nullopt when `enabled` is false; in the static binary, which has no sd-bus, it says once
  // that no lock is held, and spawns nothing.
  static std::optional<shutdown_inhibitor_link> start(caf::actor_system& system,
                                                      const warden_actor& warden, bool enabled);
  // Stops the watch and ends the actor, whose port closes the lock if it still holds one.
  void stop();

 private:
  shutdown_inhibitor_link(status_subscriber_actor actor,
                          std::shared_ptr<logind_shutdown_watch> watch)
      : actor_(std::move(actor)), watch_(std::move(watch)) {}
  status_subscriber_actor actor_;
  std::shared_ptr<logind_shutdown_watch> watch_;
};

}  // namespace runwarden

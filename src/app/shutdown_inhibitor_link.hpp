#pragma once
// The logind side of `runwarden run` ([run] inhibit_shutdown): the shutdown inhibitor actor
// follows the warden on a thread of its own and holds a logind delay lock for shutdown while
// jobs run (actors/shutdown_inhibitor). Off, nothing is spawned and the bus is never opened.

#include <optional>

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"

namespace runwarden {

class shutdown_inhibitor_link {
 public:
  // nullopt when `enabled` is false; in the static binary, which has no sd-bus, it says once
  // that no lock is held, and spawns nothing.
  static std::optional<shutdown_inhibitor_link> start(caf::actor_system& system,
                                                      const status_source_actor& warden,
                                                      bool enabled);
  // Ends the actor, whose port closes the lock if it still holds one.
  void stop();

 private:
  explicit shutdown_inhibitor_link(status_subscriber_actor actor) : actor_(std::move(actor)) {}
  status_subscriber_actor actor_;
};

}  // namespace runwarden

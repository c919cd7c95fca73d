#pragma once
// Waits from outside the actor system until every watched actor has ended. An actor's
// behaviour, with what it holds (an HTTP client with timers on an io context, a callback
// into its owner), is released before its down message goes out; so an owner that ends
// its actors and waits here may then tear down what they used. CAF ends an actor only when
// it takes its exit message, on a worker, after the sender went on.
//
// Blocks: call only from a thread that is not a CAF worker, while the system runs.

#include <cstddef>

#include "caf/all.hpp"

namespace runwarden {

class exit_wait {
 public:
  explicit exit_wait(caf::actor_system& system) : waiter_{system} {}

  // Watch before sending the exit; an invalid handle is skipped, an ended actor counts at once.
  template <class Handle>
  void watch(const Handle& actor) {
    if (!actor) return;
    waiter_->monitor(actor);
    ++pending_;
  }

  // Returns once every watched actor has ended.
  void wait();

 private:
  caf::scoped_actor waiter_;
  std::size_t pending_ = 0;
};

}  // namespace runwarden

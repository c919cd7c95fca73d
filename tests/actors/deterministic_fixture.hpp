#pragma once
// A CAF 0.17 actor system on the test coordinator: no worker threads, messages delivered
// only when the test runs the scheduler, time moved only by the test. Every actor a test
// spawns is tracked and killed before teardown, since a live actor with a pending timer
// makes ~actor_system loop forever.

#include <catch2/catch.hpp>

#include <vector>

#include "caf/all.hpp"
#include "caf/scheduler/test_coordinator.hpp"

namespace runwarden::testing {

class deterministic_fixture {
 public:
  using scheduler_type = caf::scheduler::test_coordinator;

  deterministic_fixture()
      : system_(configure(config_)),
        scheduler_(dynamic_cast<scheduler_type&>(system_.scheduler())) {
    system_.await_actors_before_shutdown(false);
  }

  ~deterministic_fixture() {
    for (auto& actor : tracked_) caf::anon_send_exit(actor, caf::exit_reason::kill);
    scheduler_.run();
  }

  template <class... Args>
  auto spawn(Args&&... args) {
    auto handle = system_.spawn(std::forward<Args>(args)...);
    tracked_.push_back(caf::actor_cast<caf::actor>(handle));
    return handle;
  }

  void run() { scheduler_.run(); }

  // Moves virtual time forward, fires every timer now due, delivers what follows.
  void advance(caf::timespan by) {
    scheduler_.clock().advance_time(by);
    scheduler_.run();
  }

  caf::timespan elapsed() const { return scheduler_.clock().now() - start_; }

  // A typed actor's state needs the handle of the interface it was spawned with (its
  // implementation's, for an actor whose peers see a narrower one).
  template <class State, class Handle>
  State& state_of(const Handle& handle) {
    auto* actor = caf::actor_cast<caf::abstract_actor*>(handle);
    if constexpr (caf::is_typed_actor<Handle>::value)
      return dynamic_cast<caf::stateful_actor<State, typename Handle::base>&>(*actor).state;
    else
      return dynamic_cast<caf::stateful_actor<State>&>(*actor).state;
  }

  template <class State, class Base, class Handle>
  State& typed_state_of(const Handle& handle) {
    auto* actor = caf::actor_cast<caf::abstract_actor*>(handle);
    return dynamic_cast<caf::stateful_actor<State, Base>&>(*actor).state;
  }

  caf::actor_system& system() { return system_; }

 private:
  static caf::actor_system_config& configure(caf::actor_system_config& config) {
    config.set("scheduler.policy", caf::atom("testing"));
    return config;
  }

  caf::actor_system_config config_;
  caf::actor_system system_;
  scheduler_type& scheduler_;
  caf::actor_clock::time_point start_ = scheduler_.clock().now();
  std::vector<caf::actor> tracked_;
};

}  // namespace runwarden::testing

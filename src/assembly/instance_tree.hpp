#pragma once
// The supervision tree of one runwarden instance, declared as data as OTP declares its
// children in init/1: per worker an id, a start function, a restart type and a shutdown
// timeout, in start order. Each worker runs under a supervisor of its own
// (worker_supervision), so that a worker that keeps crashing touches nothing else; the
// warden listens to every supervisor and so learns of each incarnation. Stopping goes in
// reverse start order (instance.hpp).

#include <vector>

#include "actors/supervisor/supervisor_actor.hpp"
#include "caf/all.hpp"
#include "messages/autoscaling_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/assembly/instance_plan.hpp"
#include "src/assembly/instance_ports.hpp"

namespace runwarden {

// What the workers reach once the warden exists.
struct worker_peers {
  warden_actor warden;
  autoscaling_client_actor autoscaling_client;  // empty when the plan has none
  autoscaling_client_actor cloudwatch_client = {};  // empty unless job slots are published
};

// The workers `plan` asks for, in start order: unregistration, notifier, metrics poller,
// lifecycle watcher, lifecycle hooks, scaler, metrics publisher. Each start function spawns
// one incarnation from the plan's wiring with its peers filled in; HTTP ports are taken from
// `ports` now, once per worker, so that every incarnation of a worker uses the same port.
std::vector<supervised_child> declare_workers(const instance_plan& plan,
                                              const instance_ports& ports,
                                              const worker_peers& peers);

}  // namespace runwarden

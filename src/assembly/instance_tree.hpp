#pragma once
// The supervision tree of one runwarden instance, declared as data in one table, as OTP
// declares its children in init/1: per worker its id (messages/child_ids.hpp, where the
// warden reads the few it must tell apart), its start (from the plan's wiring, or
// none when the plan has no such worker), its restart type, its shutdown timeout and what
// its supervisor giving up means for the instance, in start order. Each worker runs under a
// supervisor of its own (worker_supervision), so that a worker that keeps crashing touches
// nothing else; the warden listens to every supervisor and so learns of each incarnation,
// and the instance's escalation (give_up_escalation) watches them all. Stopping goes in
// reverse start order (instance.hpp).

#include <chrono>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "actors/supervisor/give_up_escalation.hpp"
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
  autoscaling_client_actor autoscaling_client;      // empty when the plan has none
  autoscaling_client_actor cloudwatch_client = {};  // empty unless job slots are published
};

// One row of the tree. `start` gives the factory of the worker's incarnations from the
// plan's wiring with its peers filled in, taking its HTTP ports from `ports` now, once per
// worker, so that every incarnation of a worker uses the same port; nullopt when the plan
// has no such worker.
struct worker_row {
  std::string_view id;
  std::optional<child_factory> (*start)(const instance_plan&, const instance_ports&,
                                        const worker_peers&);
  restart_type restart;
  duration shutdown;  // as child_spec::shutdown_timeout
  give_up_action give_up;
};

// Every worker an instance may have, in start order: unregistration, notifier, metrics
// poller, the cloud's watcher (AWS, Azure or Google Cloud), lifecycle hooks, scaler,
// metrics publisher.
std::span<const worker_row> instance_tree();

// A planned worker: its supervised child and what its supervisor giving up means.
struct declared_worker {
  supervised_child child;
  give_up_action give_up;
};

// The rows of the tree that `plan` asks for, started as the table says.
std::vector<declared_worker> declare_workers(const instance_plan& plan, const instance_ports& ports,
                                             const worker_peers& peers);

}  // namespace runwarden

// See instance_tree.hpp. Restart types and shutdown timeouts are OTP's defaults for workers
// (permanent, 5 s); the notifier's declaration lives with it (webhook_notifier.hpp).
#include "src/assembly/instance_tree.hpp"

#include <string>
#include <utility>

#include "actors/notifier/webhook_notifier.hpp"
#include "actors/unregistrar/unregistration_phase_actor.hpp"

namespace runwarden {

namespace {

template <class Behavior, class Wiring>
supervised_child worker(std::string_view id, Behavior behavior, Wiring wiring) {
  return {{std::string{id}, restart_type::permanent, child_spec{}.shutdown_timeout},
          [behavior, wiring = std::move(wiring)](caf::local_actor* supervisor) {
            return caf::actor_cast<caf::actor>(supervisor->spawn(behavior, wiring));
          }};
}

}  // namespace

std::vector<supervised_child> declare_workers(const instance_plan& plan,
                                              const instance_ports& ports,
                                              const worker_peers& peers) {
  std::vector<supervised_child> workers;
  // Answers the warden's (unregister_atom) itself: it needs no listener.
  if (auto wiring = plan.unregistration) {
    wiring->http_port = ports.http();
    wiring->clock = ports.wall_clock;
    workers.push_back(worker(unregistration_child_id, unregistration_phase_behavior, *wiring));
  }
  auto notifier = plan.notifier;
  notifier.http_port = ports.http();
  notifier.clock = ports.wall_clock;
  workers.push_back(notifier_child(std::move(notifier)));
  // A restarted poller just polls again: the warden keeps the load it last heard.
  if (auto wiring = plan.metrics_poller) {
    wiring->http_port = ports.http();
    wiring->listener = peers.warden;
    workers.push_back(worker(metrics_poller_child_id, metrics_poller_behavior, *wiring));
  }
  // A restarted watcher reads afresh and may report a notice again; the machine ignores it.
  if (auto wiring = plan.lifecycle_watcher) {
    wiring->http_port = ports.http();
    wiring->listener = peers.warden;
    wiring->wall_clock = ports.wall_clock;
    workers.push_back(worker(lifecycle_watcher_child_id, lifecycle_watcher_behavior, *wiring));
  }
  if (auto wiring = plan.azure_watcher) {
    wiring->http_port = ports.http();
    wiring->listener = peers.warden;
    wiring->wall_clock = ports.wall_clock;
    workers.push_back(worker(azure_watcher_child_id, azure_watcher_behavior, *wiring));
  }
  if (auto wiring = plan.gcp_watcher) {  // a port per watched key: each holds a hanging GET
    wiring->preempted_port = ports.http();
    wiring->maintenance_port = ports.http();
    wiring->listener = peers.warden;
    wiring->wall_clock = ports.wall_clock;
    workers.push_back(worker(gcp_watcher_child_id, gcp_watcher_behavior, *wiring));
  }
  if (auto wiring = plan.pod_annotator) {
    wiring->http_port = ports.http();
    wiring->warden = peers.warden;
    workers.push_back(worker(pod_annotator_child_id, pod_annotator_behavior, *wiring));
  }
  if (!peers.autoscaling_client) return workers;
  if (auto wiring = plan.lifecycle_hooks) {
    wiring->autoscaling_client = peers.autoscaling_client;
    wiring->warden = peers.warden;
    workers.push_back(worker(lifecycle_hooks_child_id, lifecycle_hooks_behavior, *wiring));
  }
  if (auto wiring = plan.scaler) {
    wiring->autoscaling_client = peers.autoscaling_client;
    wiring->warden = peers.warden;
    workers.push_back(worker(scaler_child_id, scaler_behavior, *wiring));
  }
  return workers;
}

}  // namespace runwarden

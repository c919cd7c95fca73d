// See instance_tree.hpp. Restart types and shutdown timeouts are OTP's defaults for workers
// (permanent, 5 s), but for the notifier, which has nothing to flush when it is stopped
// (pending deliveries die with it), so it is given 1 s.
#include "src/assembly/instance_tree.hpp"

#include <array>
#include <string>
#include <utility>

#include "actors/unregistrar/unregistration_phase_actor.hpp"
#include "messages/child_ids.hpp"

namespace runwarden {

namespace {

using namespace std::chrono_literals;

template <class Behavior, class Wiring>
std::optional<child_factory> factory(Behavior behavior, Wiring wiring) {
  return child_factory{[behavior, wiring = std::move(wiring)](caf::local_actor* supervisor) {
    return caf::actor_cast<caf::actor>(supervisor->spawn(behavior, wiring));
  }};
}

// Answers the warden's (unregister_atom) itself: it needs no listener.
std::optional<child_factory> unregistration(const instance_plan& plan, const instance_ports& ports,
                                            const worker_peers&) {
  auto wiring = plan.unregistration;
  if (!wiring) return std::nullopt;
  wiring->http_port = ports.http();
  wiring->clock = ports.wall_clock;
  return factory(unregistration_phase_behavior, std::move(*wiring));
}

// Always started: shutdown callbacks need one even without a webhook.
std::optional<child_factory> notifier(const instance_plan& plan, const instance_ports& ports,
                                      const worker_peers&) {
  auto wiring = plan.notifier;
  wiring.http_port = ports.http();
  wiring.clock = ports.wall_clock;
  return factory(notifier_behavior, std::move(wiring));
}

// A restarted poller just polls again: the warden keeps the load it last heard.
std::optional<child_factory> metrics_poller(const instance_plan& plan, const instance_ports& ports,
                                            const worker_peers& peers) {
  auto wiring = plan.metrics_poller;
  if (!wiring) return std::nullopt;
  wiring->http_port = ports.http();
  wiring->listener = peers.warden;
  return factory(metrics_poller_behavior, std::move(*wiring));
}

// A restarted watcher reads afresh and may report a notice again; the machine ignores it.
std::optional<child_factory> aws_watcher(const instance_plan& plan, const instance_ports& ports,
                                         const worker_peers& peers) {
  auto wiring = plan.aws_watcher;
  if (!wiring) return std::nullopt;
  wiring->http_port = ports.http();
  wiring->listener = peers.warden;
  wiring->wall_clock = ports.wall_clock;
  return factory(aws_watcher_behavior, std::move(*wiring));
}

std::optional<child_factory> azure_watcher(const instance_plan& plan, const instance_ports& ports,
                                           const worker_peers& peers) {
  auto wiring = plan.azure_watcher;
  if (!wiring) return std::nullopt;
  wiring->http_port = ports.http();
  wiring->listener = peers.warden;
  wiring->wall_clock = ports.wall_clock;
  return factory(azure_watcher_behavior, std::move(*wiring));
}

// A port per watched key: each holds a hanging GET.
std::optional<child_factory> gcp_watcher(const instance_plan& plan, const instance_ports& ports,
                                         const worker_peers& peers) {
  auto wiring = plan.gcp_watcher;
  if (!wiring) return std::nullopt;
  wiring->preempted_port = ports.http();
  wiring->maintenance_port = ports.http();
  wiring->listener = peers.warden;
  wiring->wall_clock = ports.wall_clock;
  return factory(gcp_watcher_behavior, std::move(*wiring));
}

// The hooks actor and the scaler call the Auto Scaling API through the client: neither
// starts without it.
std::optional<child_factory> lifecycle_hooks(const instance_plan& plan, const instance_ports&,
                                             const worker_peers& peers) {
  auto wiring = plan.lifecycle_hooks;
  if (!wiring || !peers.autoscaling_client) return std::nullopt;
  wiring->autoscaling_client = peers.autoscaling_client;
  wiring->warden = peers.warden;
  return factory(lifecycle_hooks_behavior, std::move(*wiring));
}

std::optional<child_factory> scaler(const instance_plan& plan, const instance_ports&,
                                    const worker_peers& peers) {
  auto wiring = plan.scaler;
  if (!wiring || !peers.autoscaling_client) return std::nullopt;
  wiring->autoscaling_client = peers.autoscaling_client;
  wiring->warden = peers.warden;
  return factory(scaler_behavior, std::move(*wiring));
}

// A restarted publisher finds its group again and publishes from the next snapshot on. It
// finds its group through the Auto Scaling client and sends through its own for CloudWatch.
std::optional<child_factory> metrics_publisher(const instance_plan& plan,
                                               const instance_ports& ports,
                                               const worker_peers& peers) {
  auto wiring = plan.metrics_publisher;
  if (!wiring || !peers.autoscaling_client || !peers.cloudwatch_client) return std::nullopt;
  wiring->autoscaling_client = peers.autoscaling_client;
  wiring->cloudwatch_client = peers.cloudwatch_client;
  wiring->warden = peers.warden;
  wiring->wall_clock = ports.wall_clock;
  return factory(metrics_publisher_behavior, std::move(*wiring));
}

// The pod's annotations follow the warden's snapshots; a restarted annotator patches the
// state it sees next.
std::optional<child_factory> pod_annotator(const instance_plan& plan, const instance_ports& ports,
                                           const worker_peers& peers) {
  auto wiring = plan.pod_annotator;
  if (!wiring) return std::nullopt;
  wiring->http_port = ports.http();
  wiring->warden = peers.warden;
  return factory(pod_annotator_behavior, std::move(*wiring));
}

constexpr auto permanent = restart_type::permanent;
constexpr auto drain_then_exit = give_up_action::drain_then_exit;

// The tree. Every worker's supervisor giving up drains the runner and ends the instance
// with exit_software: a worker that keeps crashing is a bug, and a fresh start (from the
// journal) is safer than an instance that lost its unregistration, webhook or watcher.
//   id                          start              restart    shutdown  giving up
const std::array<worker_row, 10> tree{{
    {child_id::unregistration, unregistration, permanent, 5000ms, drain_then_exit},
    {child_id::notifier, notifier, permanent, 1000ms, drain_then_exit},
    {child_id::metrics_poller, metrics_poller, permanent, 5000ms, drain_then_exit},
    {child_id::aws_watcher, aws_watcher, permanent, 5000ms, drain_then_exit},
    {child_id::azure_watcher, azure_watcher, permanent, 5000ms, drain_then_exit},
    {child_id::gcp_watcher, gcp_watcher, permanent, 5000ms, drain_then_exit},
    {child_id::lifecycle_hooks, lifecycle_hooks, permanent, 5000ms, drain_then_exit},
    {child_id::scaler, scaler, permanent, 5000ms, drain_then_exit},
    {child_id::metrics_publisher, metrics_publisher, permanent, 5000ms, drain_then_exit},
    {child_id::pod_annotator, pod_annotator, permanent, 5000ms, drain_then_exit},
}};

}  // namespace

std::span<const worker_row> instance_tree() { return tree; }

std::vector<declared_worker> declare_workers(const instance_plan& plan, const instance_ports& ports,
                                             const worker_peers& peers) {
  std::vector<declared_worker> workers;
  for (const auto& row : tree)
    if (auto start = row.start(plan, ports, peers))
      workers.push_back(
          {{{std::string{row.id}, row.restart, row.shutdown}, std::move(*start)}, row.give_up});
  return workers;
}

}  // namespace runwarden

#pragma once
// Everything one runwarden instance is told, resolved before any actor exists: the drain
// machine's configuration and, per worker, its wiring with the peers left empty (its ports,
// the warden, the Auto Scaling client), which the assembly fills in as it starts them. A
// worker without a wiring is not started. Every host plans through the same pure planning
// (src/assembly/instance_planning): `runwarden run` and an embedding host from the inputs
// they gathered on this machine, the simulation from inputs held in memory; all hand the
// plan to the same assembly (instance.hpp), so what runs is the same.

#include <optional>

#include "actors/autoscaling_client/autoscaling_client_actor.hpp"
#include "actors/aws_watcher/aws_watcher_actor.hpp"
#include "actors/azure_watcher/azure_watcher_actor.hpp"
#include "actors/gcp_watcher/gcp_watcher_actor.hpp"
#include "actors/lifecycle_hooks/lifecycle_hooks_actor.hpp"
#include "actors/metrics_poller/metrics_poller_actor.hpp"
#include "actors/metrics_publisher/metrics_publisher_actor.hpp"
#include "actors/notifier/notifier_actor.hpp"
#include "actors/pod_annotator/pod_annotator_actor.hpp"
#include "actors/scaler/scaler_actor.hpp"
#include "actors/unregistrar/unregistrar_actor.hpp"
#include "src/drain/drain_machine.hpp"

namespace runwarden {

struct instance_plan {
  drain_config drain;
  // Always started: shutdown callbacks need one even without a webhook.
  notifier_wiring notifier;
  std::optional<unregistrar_wiring> unregistration = {};
  std::optional<metrics_poller_wiring> metrics_poller = {};
  // The configured cloud's watcher: at most one of the three.
  std::optional<aws_watcher_wiring> aws_watcher = {};
  std::optional<azure_watcher_wiring> azure_watcher = {};
  std::optional<gcp_watcher_wiring> gcp_watcher = {};
  // The hooks actor and the scaler call the Auto Scaling API through this client; neither
  // is started without it.
  std::optional<autoscaling_client_wiring> autoscaling_client = {};
  std::optional<lifecycle_hooks_wiring> lifecycle_hooks = {};
  std::optional<scaler_wiring> scaler = {};
  // [scaling] publish: the publisher finds its group through the Auto Scaling client and
  // sends its points through a client of its own for CloudWatch; not started without both.
  std::optional<autoscaling_client_wiring> cloudwatch_client = {};
  std::optional<metrics_publisher_wiring> metrics_publisher = {};
  // A dry run: every HTTP port the workers get withholds the calls that change something
  // (actors/http_port/dry_run_http_port.hpp); the runner is supervised as usual.
  bool dry_run = false;
  // [runner] after_exit, on_give_up, recycling: the retirement machine beside the
  // drain, and how a retired instance ends (the Auto Scaling client on AWS, else
  // runner.retire_command). Unset: the runner is only ever restarted.
  std::optional<retirement_policy> retirement = {};
  // [kubernetes]: the pod's annotations follow the runner's jobs.
  std::optional<pod_annotator_wiring> pod_annotator = {};
};

}  // namespace runwarden

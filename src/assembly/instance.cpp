// See instance.hpp.
#include "src/assembly/instance.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "actors/http_port/dry_run_http_port.hpp"
#include "actors/supervisor/give_up_escalation.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "actors/warden/warden_actor.hpp"
#include "src/assembly/instance_tree.hpp"
#include "src/logging/logging.hpp"
#include "src/ports/os/disk_usage.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// Detached only when it has a command to wait for (runner.retire_command): on AWS it only
// sends, and under the simulation's deterministic scheduler nothing may be detached. Besides
// a retirement, with lifecycle hooks it terminates an instance its group retains
// (Terminating:Retained). None otherwise.
instance_end_actor start_instance_end(caf::actor_system& system, const instance_plan& plan,
                                      const autoscaling_client_actor& client) {
  if (!plan.retirement && !(plan.lifecycle_hooks && client)) return {};
  instance_end_wiring ending{
      .autoscaling_client = client,
      .command = plan.retirement ? plan.retirement->end.command : std::vector<std::string>{},
      .dry_run = plan.dry_run};
  if (ending.command.empty())
    return instance_end_actor{system.spawn(instance_end_behavior, std::move(ending))};
  return instance_end_actor{system.spawn<caf::detached>(instance_end_behavior, std::move(ending))};
}

}  // namespace

instance instance::start(caf::actor_system& system, instance_plan plan, instance_ports ports) {
  RUNWARDEN_ASSERT(ports.process && ports.http && ports.exit_listener);
  // A dry run puts its port in front of every worker's: whatever a worker calls, only reads
  // go out. The runner's process port is untouched: the runner is supervised as usual.
  if (plan.dry_run) {
    warden_logger()->warn(
        "dry run: no call that changes the fleet or the CI server is sent "
        "(each is logged \"dry run: ...\"); the runner is supervised and "
        "signalled as usual");
    ports.http = [&system, real = ports.http] { return system.spawn(dry_run_http_port, real()); };
  }
  instance started;
  // The warden's exit and signals reach the host through the escalation, which sets the
  // exit code when a worker's supervisor gave up (give_up_escalation.hpp).
  started.escalation_ = system.spawn(give_up_escalation, ports.exit_listener);
  const bool calls_autoscaling =
      plan.lifecycle_hooks || plan.scaler || plan.metrics_publisher || plan.retirement;
  if (plan.autoscaling_client && calls_autoscaling) {
    auto wiring = *plan.autoscaling_client;
    wiring.http_port = ports.http();
    wiring.wall_clock = ports.wall_clock;
    started.autoscaling_client_ = system.spawn(autoscaling_client_behavior, std::move(wiring));
  }
  // A port of its own: a CloudWatch that hangs holds none of the Auto Scaling calls up.
  if (plan.cloudwatch_client && plan.metrics_publisher) {
    auto wiring = *plan.cloudwatch_client;
    wiring.http_port = ports.http();
    wiring.wall_clock = ports.wall_clock;
    started.cloudwatch_client_ = system.spawn(autoscaling_client_behavior, std::move(wiring));
  }
  started.instance_end_ = start_instance_end(system, plan, started.autoscaling_client_);
  started.warden_ = system.spawn(
      warden_behavior, warden_wiring{.config = plan.drain,
                                     .process_port = ports.process,
                                     .exit_listener = caf::actor_cast<warden_exit_listener_actor>(
                                         started.escalation_),
                                     .unregistrar_supervised = plan.unregistration.has_value(),
                                     .observer = ports.observer,
                                     .snapshot_observer = ports.snapshot_observer,
                                     .journal = ports.journal,
                                     .recovered = std::move(ports.recovered),
                                     .wall_clock = ports.wall_clock,
                                     .retirement = plan.retirement,
                                     .instance_end = started.instance_end_,
                                     .disk_used_percent = disk_used_percent,
                                     .machine_uptime = ports.machine_uptime});
  escalation_watch escalation{.warden = started.warden_, .supervisors = {}};
  for (auto& worker : declare_workers(
           plan, ports,
           {started.warden_, started.autoscaling_client_, started.cloudwatch_client_})) {
    started.ids_.push_back(worker.child.spec.id);
    started.supervisors_.push_back(spawn_worker_supervisor(system, std::move(worker.child)));
    caf::anon_send(started.supervisors_.back(), caf::subscribe_atom::value,
                   child_listener_actor{started.warden_});
    escalation.supervisors.emplace_back(started.supervisors_.back(), worker.give_up);
  }
  RUNWARDEN_ASSERT(started.ids_.size() == started.supervisors_.size());
  caf::anon_send(started.escalation_, std::move(escalation));
  return started;
}

supervisor_actor instance::supervisor_of(std::string_view id) const {
  const auto found = std::find(ids_.begin(), ids_.end(), id);
  return found == ids_.end() ? supervisor_actor{} : supervisors_[found - ids_.begin()];
}

void instance::stop(caf::exit_reason reason) {
  for (auto supervisor = supervisors_.rbegin(); supervisor != supervisors_.rend(); ++supervisor)
    if (*supervisor) caf::anon_send_exit(*supervisor, reason);
  if (autoscaling_client_) caf::anon_send_exit(autoscaling_client_, reason);
  if (cloudwatch_client_) caf::anon_send_exit(cloudwatch_client_, reason);
  if (instance_end_) caf::anon_send_exit(instance_end_, reason);
  if (warden_) caf::anon_send_exit(warden_, reason);
  if (escalation_) caf::anon_send_exit(escalation_, reason);
  supervisors_.clear();
  ids_.clear();
  autoscaling_client_ = autoscaling_client_actor{};
  cloudwatch_client_ = autoscaling_client_actor{};
  instance_end_ = instance_end_actor{};
  warden_ = warden_actor{};
  escalation_ = give_up_escalation_actor{};
}

}  // namespace runwarden

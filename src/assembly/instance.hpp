#pragma once
// One runwarden instance, built in this one place for every host: `runwarden run`, each
// instance of `runwarden sim` and a program that embeds runwarden. From a plan and a set of
// ports it starts the warden on those ports, the Auto Scaling client (a port-like cache of
// identity and credentials that decides nothing, so it runs unsupervised) and, when job
// slots are published, its twin for CloudWatch, then every
// worker of the declared tree (instance_tree.hpp) under a supervisor of its own; the warden
// listens to each supervisor and learns of every incarnation from it. A supervisor that
// gives up (its worker kept crashing) is the instance's to answer, the same in every host:
// the escalation (give_up_escalation.hpp) drains the runner, and the host's exit listener
// then hears warden_exited with exit_software.
//
// Nothing here blocks: the simulation runs it on CAF's test coordinator.

#include <string>
#include <string_view>
#include <vector>

#include "actors/autoscaling_client/autoscaling_client_actor.hpp"
#include "actors/instance_end/instance_end_actor.hpp"
#include "actors/supervisor/give_up_escalation.hpp"
#include "actors/warden/warden_actor.hpp"
#include "caf/all.hpp"
#include "messages/supervisor_messages.hpp"
#include "src/assembly/instance_plan.hpp"
#include "src/assembly/instance_ports.hpp"

namespace runwarden {

class instance {
 public:
  static instance start(caf::actor_system& system, instance_plan plan, instance_ports ports);

  const warden_actor& warden() const { return warden_; }
  // In start order. The instance itself answers one that gives up (see above).
  const std::vector<supervisor_actor>& supervisors() const { return supervisors_; }
  // The supervisor of the worker `id` (messages/child_ids.hpp); invalid when the plan has none.
  supervisor_actor supervisor_of(std::string_view id) const;

  // Sends the exit to every supervisor in reverse start order (each stops its worker), then
  // to the Auto Scaling client, the warden and the escalation. With exit_reason::kill this
  // is a crash, as kill -9 would end them. The ports stay: they are the host's. Safe to call twice.
  void stop(caf::exit_reason reason = caf::exit_reason::user_shutdown);

 private:
  warden_actor warden_;
  give_up_escalation_actor escalation_;  // the warden's exit listener, before the host's
  autoscaling_client_actor autoscaling_client_;
  autoscaling_client_actor cloudwatch_client_;  // the same actor with CloudWatch's names
  instance_end_actor instance_end_;             // ends a retired instance
  std::vector<std::string> ids_;                // of supervisors_, one each
  std::vector<supervisor_actor> supervisors_;
};

}  // namespace runwarden

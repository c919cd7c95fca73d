// See fleet_world.hpp. How an Azure scale set and a Google managed instance group take a VM
// away, as each cloud documents it:
//   Azure ("Terminate notification for Azure Virtual Machine Scale Set instances", "Scheduled
//   Events for Linux VMs"): a scale-in posts a Terminate event naming the VM, NotBefore the
//   scale set's notBeforeTimeout (5 to 15 minutes) ahead; a Spot eviction posts a Preempt,
//   at least 30 s ahead; Spot VMs get no terminate notification. The VM is deleted at
//   NotBefore, or as soon as its event is approved (StartRequests).
//   Google Cloud ("Running shutdown scripts", "Detect if a VM was preempted"): a managed
//   instance group that deletes a VM stops it with an ACPI soft-off, which the guest's
//   shutdown turns into SIGTERM for runwarden, and the VM stops when its shutdown period
//   (90 s on demand) is over; there is no metadata notice. A preemption sets
//   instance/preempted to TRUE, sends the same soft-off and stops the VM 30 s later.
#include "src/sim/fleet_world.hpp"

#include <fmt/format.h>

#include "src/sim/fleet_checker.hpp"
#include "src/sim/gcp_metadata_service.hpp"

namespace runwarden {

namespace {

// The guest's shutdown reaches runwarden's unit this long after the ACPI soft-off.
constexpr sim_seconds gcp_guest_shutdown_lag = 1;

}  // namespace

void fleet_world::notify_azure_termination(std::size_t index, const std::string& type,
                                           sim_seconds notice, sim_seconds now) {
  auto& instance = instances_[index];
  const auto not_before = now + notice;
  instance.terminate_action = sim_lifecycle_action{type, now, not_before, not_before};
  instance.terminate_action->event_id =
      fmt::format("{:08X}-5C4E-4D00-8000-{:012X}", ++azure_events_issued_, index + 1);
  ++azure_incarnation_;
  set_state(instance, "Terminating:Wait", now);
}

// StartRequests from `approver` for the event of instance `index`. Azure lets any VM of the
// placement group approve any event; runwarden must approve only its own, and only once its
// runner is gone and unregistered.
void fleet_world::azure_approved(std::size_t approver, std::size_t index, sim_seconds now) {
  auto& instance = instances_[index];
  auto& event = *instance.terminate_action;
  if (event.ended) {
    ++event.completions_refused;  // approved again: the answer to the first was lost
    return;
  }
  checker_->azure_event_approved(now, instances_[approver], instance);
  end_action(instance, event, "CONTINUE", now);
  ++azure_incarnation_;  // the event is Started now
}

void fleet_world::shut_down_gcp(std::size_t index, sim_seconds period, sim_seconds now) {
  auto& instance = instances_[index];
  set_state(instance, "Terminating", now);
  instance.shutdown_signal_at = now + gcp_guest_shutdown_lag;
  instance.stop_at = now + period;
  if (instance.preempted) gcp_metadata_service{*this}.value_changed(index);
}

// Each tick on Google Cloud: soft-offs reaching runwarden, VMs whose shutdown is over, and
// waiting metadata reads at their timeout.
void fleet_world::gcp_shutdowns(sim_seconds now) {
  for (std::size_t index = 0; index < instances_.size(); ++index) {
    auto& instance = instances_[index];
    if (instance.gone) continue;
    if (instance.shutdown_signal_at && now >= *instance.shutdown_signal_at) {
      instance.shutdown_signal_at.reset();
      if (on_shutdown_signal) on_shutdown_signal(index);
    }
    if (instance.stop_at && now >= *instance.stop_at) {
      wind_down_at_reclaim(instance, now);
      terminate_now(
          index, now,
          instance.preempted ? "the preempted VM was stopped" : "the VM's shutdown period ran out");
    }
  }
  gcp_metadata_service{*this}.answer_timed_out(now);
}

}  // namespace runwarden

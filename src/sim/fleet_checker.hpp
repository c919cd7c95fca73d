#pragma once
// The judge of a simulated run, apart from the world it judges (as TigerBeetle keeps its
// state_checker apart from the cluster): the world simulates and reports facts as they
// happen (a runner spawned, a hook completed, an instance taken back), the fleet run
// reports what each warden published, and the checker holds them against the invariants
// (fleet_invariants.hpp), keeping the violations for the report. It knows the scenario (the
// group's bounds, when faults end) but changes nothing in the world.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/drain/drain_vocabulary.hpp"
#include "src/sim/fleet_invariants.hpp"
#include "src/sim/fleet_world.hpp"

namespace runwarden {

// How long after a retirement's decision its instance must be terminated
// (retirement_not_ended; fleet_checker_retirement.cpp says why).
sim_seconds retirement_end_bound(const fleet_scenario& scenario);

class fleet_checker {
 public:
  explicit fleet_checker(const fleet_scenario& scenario) : scenario_(scenario) {}

  // The group's desired capacity was set (by the scaler, a capacity change, a termination).
  void desired_set(sim_seconds at, int desired);
  // A runner was spawned where `previous` was the runner before; `draining`: its runwarden
  // had published a drain, with `deadline`.
  void runner_spawned(sim_seconds at, const sim_instance& instance, const sim_runner& previous,
                      bool draining, std::optional<sim_seconds> deadline);
  // runwarden's signal killed `jobs` job(s) at `at`; `deadline`: the drain deadline its warden
  // published by the end of that instant.
  void jobs_killed_by_signal(sim_seconds at, const sim_instance& instance, std::size_t jobs,
                             int signal_number, std::optional<sim_seconds> deadline);
  // A warden published `to` after `from`.
  void status_published(sim_seconds at, const sim_instance& instance, warden_status from,
                        warden_status to);

  // The instance is taken back (a spot reclaim, a hook's or a shutdown period's end) while
  // its terminate action, if any, is still open. Returns true when faults still kept the
  // exited runner's wind-down retrying: counted in the report, not a violation.
  bool reclaimed(sim_seconds at, const sim_instance& instance);
  // A terminate hook (an Azure event) ran out: `action`.
  void action_timed_out(sim_seconds at, const sim_instance& instance,
                        const sim_lifecycle_action& action);
  // A terminate hook was completed with `result`.
  void hook_completed(sim_seconds at, const sim_instance& instance, const std::string& result);
  // `instance`'s Azure event was approved by `approver`'s runwarden.
  void azure_event_approved(sim_seconds at, const sim_instance& approver,
                            const sim_instance& instance);
  // The instance's runwarden journaled its decision to retire the instance (a runner's end
  // that retires it, or a drain with the retirement or replacement trigger).
  void retirement_decided(sim_seconds at, const sim_instance& instance);
  // `jobs` job(s) of the instance were killed, `why` as the world words it.
  void jobs_killed(sim_seconds at, const sim_instance& instance, std::size_t jobs,
                   const std::string& why);
  // Once a virtual second, per instance: what must hold for it at every moment.
  void instance_ticked(sim_seconds at, const sim_instance& instance);
  // The run ended: the liveness checks.
  void finished(sim_seconds at, const std::vector<sim_instance>& instances);

  const std::vector<world_violation>& violations() const { return violations_; }

 private:
  void violate(sim_seconds at, fleet_invariant invariant, std::string detail);
  void completed_in_time(sim_seconds at, const sim_instance& instance);
  bool faulty(sim_seconds at) const;
  void retirement_ended_in_time(sim_seconds at, const sim_instance& instance);

  const fleet_scenario& scenario_;
  std::set<std::string> reported_registered_;       // left_registered is reported once
  std::map<std::string, sim_seconds> retirements_;  // by instance id: when it was decided
  std::set<std::string> reported_unended_;          // retirement_not_ended is reported once
  std::vector<world_violation> violations_;
};

}  // namespace runwarden

#pragma once
// The instance end: the port through which a retired instance is ended, once its runner is
// gone and unregistered (src/retirement). One request per run, answered once:
//
//   on AWS (an Auto Scaling client is wired), through the client's SigV4 calls:
//     terminate       TerminateInstanceInAutoScalingGroup with ShouldDecrementDesiredCapacity
//                     as asked; at the group's minimum AWS refuses a decrement
//                     (ValidationError "...min size constraint..."), and the call is made
//                     again without it: the group then launches a replacement, which is what
//                     its minimum asks for. Never a plain TerminateInstances: the group
//                     would count a vanished instance as unhealthy and its hooks would not run.
//     mark_unhealthy  SetInstanceHealth Unhealthy with ShouldRespectGracePeriod false: the
//                     group terminates and replaces the instance on its own schedule.
//     retained        (a terminate asked for an instance the group retains, whatever the
//                     drain's trigger) TerminateInstanceInAutoScalingGroup without the
//                     decrement: the instance no longer counts in the desired capacity. Its
//                     terminate hook was abandoned, so none is looked for.
//     Each call is the Auto Scaling client's, retried within its budget: the instance end
//     is the one actor that ends an instance once its drain is over.
//     Then a terminate lifecycle hook the group starts for this instance is completed at
//     once with CONTINUE: the drain is over, nothing is left for the hook to wait for. The
//     hook is looked for hook_looks_max times, hook_wait apart, since the group starts it
//     moments after the call (for an Unhealthy instance, at its next health pass); only
//     answers count as looks, a transient failure of a lookup or a completion does not.
//     A transient failure (no identity from IMDS yet, throttling, 5xx, no answer within the
//     call's budget, credentials to fetch again) is not an answer: the same step is tried
//     again after a wait that doubles from hook_wait up to retry_wait_max, for as long as
//     it takes, as the unregistration retries until the CI server confirms. A retired
//     instance left running would idle, billed, for good: its journal keeps the runner
//     from starting again. Only a refusal (access denied, a request AWS rejects) is the
//     answer, and names the problem.
//   elsewhere: retire_command (argv, run directly, never through a shell), e.g.
//     ["/usr/bin/systemctl", "poweroff"]; Azure's and Google's own delete calls are not
//     made (a scale set or managed instance group replaces or removes a powered-off
//     instance by its own policy). No command: nothing to do, and the answer says so.
//
// A dry run withholds every changing call: the HTTP port in front of the client does that
// for AWS (the Describe* reads go out), and the command is logged, not run.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "actors/autoscaling_client/autoscaling_client_actor.hpp"
#include "messages/instance_end_messages.hpp"

namespace runwarden {

struct instance_end_wiring {
  autoscaling_client_actor autoscaling_client = {};  // empty: not on AWS
  std::vector<std::string> command = {};             // retire_command; empty: none
  bool dry_run = false;
  std::chrono::milliseconds call_budget{std::chrono::minutes{2}};  // per Auto Scaling call
  std::chrono::milliseconds hook_wait{std::chrono::seconds{2}};
  std::uint32_t hook_looks_max = 15;
  std::chrono::milliseconds retry_wait_max{std::chrono::minutes{1}};
  std::chrono::milliseconds command_timeout{std::chrono::minutes{1}};
};

using look_for_hook_atom = caf::atom_constant<caf::atom("lookhook")>;
using retry_end_atom = caf::atom_constant<caf::atom("retryend")>;

struct instance_end_state {
  static inline const char* name = "instance_end";
  instance_end_wiring wiring;
  std::string instance_id;
  std::string group_name;
  std::uint32_t hook_looks = 0;
  caf::typed_response_promise<instance_end_outcome> promise;
  bool asked = false;  // one request per run
  std::string done_detail;
  std::uint32_t retries = 0;         // transient failures so far: the next wait doubles
  std::function<void()> retry_step;  // what retry_end_atom runs
};

using instance_end_implementation =
    instance_end_actor::extend<caf::reacts_to<look_for_hook_atom>, caf::reacts_to<retry_end_atom>>;

// Blocks while retire_command runs (bounded by command_timeout): spawn it detached.
instance_end_implementation::behavior_type instance_end_behavior(
    instance_end_implementation::stateful_pointer<instance_end_state> self,
    instance_end_wiring wiring);

}  // namespace runwarden

#pragma once
// The instance end's vocabulary (actors/instance_end): once a retirement's drain reached
// gone, or any drain whose instance the group retains (Terminating:Retained), the warden asks it to
// end the instance by the cloud's own route and waits for its answer before it exits, so that the
// logs of the retirement are written first and the exit comes after the call.
//
//   (end_instance_atom, instance_end_request) -> instance_end_outcome

#include <string>

#include "caf/all.hpp"
#include "src/retirement/retirement_machine.hpp"

namespace runwarden {

using end_instance_atom = caf::atom_constant<caf::atom("endinst")>;

struct instance_end_request {
  instance_end end = instance_end::terminate;
  // AWS: ShouldDecrementDesiredCapacity, chosen by the warden (config, else by the cause).
  bool decrement_desired_capacity = false;
  std::string reason;
  // The group retains the instance (src/aws/instance_retention.hpp): terminated without a
  // decrement (it no longer counts), and no terminate hook is looked for (it was abandoned).
  bool retained = false;
};

struct instance_end_outcome {
  bool done = false;   // the cloud took the call (or a dry run withheld it)
  std::string detail;  // one line for the log
};

using instance_end_actor = caf::typed_actor<
    caf::replies_to<end_instance_atom, instance_end_request>::with<instance_end_outcome>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::instance_end_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::instance_end_outcome)

// The warden's own retirement timers (src/retirement), sent to itself.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::retirement_timer_fired)

#pragma once
// What an instance does when one of its workers keeps crashing, in every host alike (the
// daemon, an embedding host, the simulation): as OTP's supervisor that reaches its restart
// intensity stops and tells its parent, each worker's supervisor gives up, and this actor,
// which monitors them all, decides for the instance. It asks the warden to drain (the
// graceful way: no job is killed) and, when the warden reports gone, hands the host the
// exit code exit_software (70) instead of the warden's, so that a service manager starts
// runwarden afresh, which continues from its journal. It stands between the warden and the
// host's exit listener, passing everything else on unchanged.
//
// A supervisor stopped on purpose (the instance stopping, or killed with it) is no give-up.
// The warden is spawned with this actor as its exit listener, so the warden and the
// supervisors to watch come after, in one escalation_watch.

#include <utility>
#include <vector>

#include "caf/all.hpp"
#include "messages/supervisor_messages.hpp"
#include "messages/warden_messages.hpp"

namespace runwarden {

// What a worker's supervisor giving up means for its instance (the tree's last column).
enum class give_up_action {
  drain_then_exit,  // drain the runner gracefully, then end with exit_software
};

struct escalation_watch {
  warden_actor warden;
  std::vector<std::pair<supervisor_actor, give_up_action>> supervisors;
};

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::escalation_watch)

namespace runwarden {

// The warden sees it as its warden_exit_listener_actor (caf::actor_cast); only the
// assembly sends it the escalation_watch. Untyped, since CAF 0.17 refuses to spawn the
// typed extension of that interface by an escalation_watch (a static assertion on the
// handle type).
using give_up_escalation_actor = caf::actor;

struct give_up_escalation_state {
  static inline const char* name = "give_up_escalation";
  warden_actor warden;         // from the escalation_watch
  bool worker_failed = false;  // one drain is enough
};

// `host`: the host's exit listener (instance_ports), which hears what the warden says.
caf::behavior give_up_escalation(caf::stateful_actor<give_up_escalation_state>* self,
                                 warden_exit_listener_actor host);

}  // namespace runwarden

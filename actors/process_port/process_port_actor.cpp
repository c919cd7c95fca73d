// See process_port_actor.hpp.
#include "actors/process_port/process_port_actor.hpp"

namespace runwarden {

process_port_actor::behavior_type process_port(process_port_actor::pointer self,
                                               std::weak_ptr<runner_host> host) {
  return {
      [=](spawn_atom) {
        if (auto live = host.lock())
          live->spawn(caf::actor_cast<caf::actor>(self->current_sender()));
      },
      [=](signal_atom, std::int64_t pid, std::int32_t signal_number) {
        if (auto live = host.lock())
          live->signal_group(pid, signal_number,
                             caf::actor_cast<caf::actor>(self->current_sender()));
      },
      [=](adopt_atom, std::int64_t pid, const process_identity& identity) {
        if (auto live = host.lock())
          live->adopt(pid, identity, caf::actor_cast<caf::actor>(self->current_sender()));
      },
      [=](release_atom, std::int64_t pid, bool go) {
        if (auto live = host.lock()) live->release(pid, go);
      },
  };
}

}  // namespace runwarden

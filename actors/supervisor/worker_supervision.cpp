// See worker_supervision.hpp.
#include "actors/supervisor/worker_supervision.hpp"

#include <utility>

namespace runwarden {

supervisor_actor spawn_worker_supervisor(caf::actor_system& system, supervised_child child) {
  return system.spawn(supervisor_behavior,
                      supervisor_wiring{worker_supervision, {std::move(child)}});
}

caf::actor current_child(caf::actor_system& system, const supervisor_actor& supervisor,
                         const std::string& id, std::chrono::milliseconds wait_max) {
  caf::scoped_actor asker{system};
  caf::actor current;
  asker->request(supervisor, caf::duration{wait_max}, caf::get_atom::value, id)
      .receive([&](const child_incarnation& child) { current = child.handle; },
               [&](const caf::error&) {});
  return current;
}

}  // namespace runwarden

#pragma once
// The ports of one simulated instance: its HTTP port and its process port answer from the
// fleet world instead of the network and the OS, in virtual time. Answers come after the
// world's latency; a request the world drops is answered "timed out" once the request's own
// timeout has passed, as libcurl would, so every request still gets exactly one answer. A
// request the world holds (a Google metadata read waiting for a change) is answered when the
// world says so.

#include <cstddef>
#include <memory>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/sim/fleet_world.hpp"

namespace runwarden {

struct sim_port_wiring {
  std::shared_ptr<fleet_world> world;
  std::size_t instance = 0;
  caf::actor_clock::time_point start;  // virtual time zero
};

http_port_actor::behavior_type sim_http_port(http_port_actor::pointer self, sim_port_wiring wiring);
process_port_actor::behavior_type sim_process_port(process_port_actor::pointer self,
                                                   sim_port_wiring wiring);

// Seconds of virtual time since `start`.
sim_seconds sim_now(const caf::actor_clock::time_point& now,
                    const caf::actor_clock::time_point& start);

}  // namespace runwarden

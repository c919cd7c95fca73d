// See http_port_actor.hpp. A refused job is answered here at once, so that the asker always
// gets exactly one answer per message and never waits on a queue that had no room.
#include "actors/http_port/http_port_actor.hpp"

namespace runwarden {

namespace {

constexpr const char* refused_text = "the HTTP port is busy or stopped (queue full)";

caf::actor sender_of(http_port_actor::pointer self) {
  return caf::actor_cast<caf::actor>(self->current_sender());
}

}  // namespace

http_port_actor::behavior_type http_port(http_port_actor::pointer self,
                                         std::shared_ptr<http_worker> worker) {
  return {
      [=](const host_lookup& lookup) {
        auto reply_to = sender_of(self);
        if (!reply_to) return;
        if (!worker->submit(lookup, reply_to))
          caf::anon_send(reply_to, host_lookup_result{lookup.id, {}, refused_text});
      },
      [=](const http_request& request) {
        auto reply_to = sender_of(self);
        if (!reply_to) return;
        if (!worker->submit(request, reply_to))
          caf::anon_send(reply_to, http_response{.id = request.id, .transport_error = refused_text});
      },
  };
}

}  // namespace runwarden

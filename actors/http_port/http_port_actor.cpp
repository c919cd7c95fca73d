// See http_port_actor.hpp. A refused job is answered here at once, so that the asker always
// gets exactly one answer per message and never waits on a queue that had no room.
//
// Host lookups stay on the libcurl worker: they block in getaddrinfo_a with a hard timeout
// (host_resolver.hpp), and only the webhook and unregistration targets ask for them, whose
// requests mostly go over https to the worker anyway.
#include "actors/http_port/http_port_actor.hpp"

#include "src/ports/http/http_request_rules.hpp"
#include "src/ports/http/plain_http_client.hpp"

namespace runwarden {

namespace {

constexpr const char* refused_text = "the HTTP port is busy or stopped (queue full)";

caf::actor sender_of(http_port_actor::pointer self) {
  return caf::actor_cast<caf::actor>(self->current_sender());
}

}  // namespace

bool goes_to_plain_client(const http_request& request) {
  constexpr std::string_view plain_scheme = "HTTP://";
  return !request.environment_proxy && request.url.size() > plain_scheme.size() &&
         equals_ignoring_case(std::string_view{request.url}.substr(0, plain_scheme.size()),
                              plain_scheme);
}

http_port_actor::behavior_type http_port(http_port_actor::pointer self,
                                         std::shared_ptr<http_worker> worker,
                                         std::shared_ptr<plain_http_client> plain) {
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
        const bool accepted = plain && goes_to_plain_client(request)
                                  ? plain->submit(request, reply_to)
                                  : worker->submit(request, reply_to);
        if (!accepted)
          caf::anon_send(reply_to,
                         http_response{.id = request.id, .transport_error = refused_text});
      },
  };
}

}  // namespace runwarden

// See dry_run_http_port.hpp.
#include "actors/http_port/dry_run_http_port.hpp"

#include "src/logging/logging.hpp"
#include "src/ports/http/dry_run_withholding.hpp"

namespace runwarden {

http_port_actor::behavior_type dry_run_http_port(http_port_actor::pointer self,
                                                 http_port_actor inner) {
  return {
      [=](const host_lookup& lookup) { self->delegate(inner, lookup); },
      [=](const http_request& request) {
        auto withheld = dry_run_withholding(request);
        if (!withheld) {
          self->delegate(inner, request);
          return;
        }
        warden_logger()->warn("dry run: {}, not sent", withheld->name);
        auto reply_to = caf::actor_cast<caf::actor>(self->current_sender());
        if (reply_to) caf::anon_send(reply_to, std::move(withheld->answer));
      },
  };
}

}  // namespace runwarden

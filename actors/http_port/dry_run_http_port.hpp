#pragma once
// The dry run's HTTP port: it stands in front of a real port and lets only reads through.
// A request that would change something outside the machine (dry_run_withholding.hpp) is
// logged as "dry run: <call>, not sent" and answered as done, so the worker that asked goes
// on as if the call had succeeded: a drain still ends, the scaler still decides. Every
// worker of a dry-run instance gets its HTTP port through it (instance.cpp), so no call
// escapes whichever worker makes it.

#include "caf/all.hpp"
#include "messages/http_messages.hpp"

namespace runwarden {

// `inner` carries what goes out; it answers the original asker directly (the request is
// delegated, so the asker stays the sender).
http_port_actor::behavior_type dry_run_http_port(http_port_actor::pointer self,
                                                 http_port_actor inner);

}  // namespace runwarden

#pragma once
// The metrics poller's typed interfaces. The poller scrapes the runner's /metrics and tells
// its listener (the warden) runner_load_observed whenever the runner's load or state
// changes; to scrape more often while the runner drains, it follows the listener's status.

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"

namespace runwarden {

// What the poller's peers may send it: the warden's status, which it subscribed to.
using metrics_poller_actor = status_subscriber_actor;

// The part of the warden the poller uses: it tells the load, and subscribes to the status.
using metrics_listener_actor =
    caf::typed_actor<caf::reacts_to<runner_load_observed>,
                     caf::reacts_to<subscribe_atom, status_subscriber_actor>>;

}  // namespace runwarden

#pragma once
// The Google Cloud watcher: waits on the Compute Engine metadata server for the
// two keys that warn of the instance's end, instance/preempted and
// instance/maintenance-event, each with hanging GETs (wait_for_change and the last ETag) on
// an HTTP port of its own, so that one key's wait never holds up the other's. It tells its
// listener what calls for a drain (lifecycle_trigger, once per notice) and logs who the
// instance is, read once on the maintenance key's port before its wait begins. Decisions
// are the pure metadata_key_watch's and gcp_notice_watch's; this actor carries them out:
// requests to the ports, backoff waits as delayed_send to itself, reports to the log.
// Without either port it can watch nothing, so it ends with the port's reason and its
// supervisor decides.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/lifecycle_client_messages.hpp"
#include "src/gcp/gcp_identity.hpp"
#include "src/gcp/gcp_notice_watch.hpp"
#include "src/gcp/metadata_key_watch.hpp"

namespace runwarden {

struct gcp_watcher_wiring {
  http_port_actor preempted_port;
  http_port_actor maintenance_port;
  trigger_listener_actor listener;
  std::string endpoint;  // from resolve_gcp_metadata_endpoint
  std::chrono::seconds wait_timeout{std::chrono::minutes{5}};
  gcp_notice_policy notices;
  std::uint64_t random_seed = 0;
  // Notices start deadlines from the wall-clock time they are seen; tests give their own.
  std::function<wall_time()> wall_clock = [] { return std::chrono::system_clock::now(); };
  // Called whenever the metadata service answered (2xx, or 404 for a key it does not
  // have), for /metrics; may be empty. The caller reads the clock.
  std::function<void()> answered = {};
};

// One metadata key and its port, with the request in flight.
struct gcp_watched_key {
  std::optional<metadata_key_watch> watch;
  std::uint64_t waiting_for = 0;  // the request in flight; 0 when none
};

struct gcp_watcher_state {
  static inline const char* name = "gcp_watcher";
  gcp_watcher_wiring wiring;
  gcp_watched_key preempted;
  gcp_watched_key maintenance;
  std::optional<gcp_notice_watch> notices;
  gcp_identity identity;
  std::size_t identity_key = 0;  // the next of gcp_identity_keys to read
  std::uint64_t identity_waiting = 0;
  std::uint64_t next_id = 1;
};

// The watcher as it runs: besides its HTTP ports' answers (gcp_watcher_actor),
// (gcp_retry_atom, key) when its backoff for one metadata key is over.
using gcp_watcher_implementation =
    gcp_watcher_actor::extend<caf::reacts_to<gcp_retry_atom, std::string>>;

gcp_watcher_implementation::behavior_type gcp_watcher_behavior(
    gcp_watcher_implementation::stateful_pointer<gcp_watcher_state> self,
    gcp_watcher_wiring wiring);

}  // namespace runwarden

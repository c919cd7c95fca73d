#pragma once
// The Azure watcher: reads who this machine is from the Instance Metadata
// Service (/metadata/instance/compute, retried with backoff until it answers, since only
// events naming this machine count), then polls Scheduled Events every poll interval, one
// request at a time, always with "Metadata: true" and the pinned api-version. It tells its
// listener (the warden) what calls for a drain (lifecycle_trigger) and, right after, the
// event to approve (lifecycle_action_pending, hook_name = EventId, no heartbeats, expiring
// at NotBefore). It is also the warden's lifecycle client for those events: asked to
// complete one (complete_atom) once the runner is gone and unregistered, it approves it
// with a StartRequests POST, retried with backoff, and answers lifecycle_action_completed.
// Decisions about documents are the pure azure_event_watch's. Without its HTTP port it can
// do nothing, so it ends with the port's reason and its supervisor decides.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/lifecycle_client_messages.hpp"
#include "src/azure/azure_event_watch.hpp"

namespace runwarden {

// Attempts at one approval; past them the warden hears it failed (Azure goes on at
// NotBefore anyway).
inline constexpr std::uint32_t azure_approval_attempts_max = 8;

struct azure_watcher_wiring {
  http_port_actor http_port;
  azure_watcher_listener_actor listener;
  std::string endpoint;  // scheme and authority, from the settings
  std::chrono::milliseconds poll_interval{std::chrono::seconds{1}};
  azure_event_policy policy;
  std::uint64_t random_seed = 0;
  // Events name wall-clock times; tests give a clock of their own.
  std::function<wall_time()> wall_clock = [] { return std::chrono::system_clock::now(); };
  // Called whenever the metadata service answered (2xx, or 404 for a key it does not
  // have), for /metrics; may be empty. The caller reads the clock.
  std::function<void()> answered = {};
};

struct azure_watcher_state {
  static inline const char* name = "azure_watcher";
  azure_watcher_wiring wiring;
  std::optional<azure_event_watch> watch;  // once the compute name is known
  std::uint64_t next_id = 1;
  std::uint64_t read_waiting = 0;      // the compute or events GET in flight; 0 when none
  std::uint64_t approval_waiting = 0;  // the StartRequests POST in flight; 0 when none
  bool first_events_read = true;       // Azure may take two minutes to answer the first
  std::uint32_t compute_failures = 0;
  std::string approving;  // the EventId being approved; empty when none
  std::uint32_t approval_attempts = 0;
  std::uint64_t random_state = 0;
};

// The watcher as it runs: besides the warden's requests (azure_watcher_actor), its HTTP
// port's answers and the waits it sets itself (lifecycle_messages.hpp): the poll tick and
// the backoff of the compute read or an approval.
using azure_watcher_implementation =
    azure_watcher_actor::extend<caf::reacts_to<http_response>, caf::reacts_to<azure_poll_atom>,
                                caf::reacts_to<azure_retry_atom>>;

azure_watcher_implementation::behavior_type azure_watcher_behavior(
    azure_watcher_implementation::stateful_pointer<azure_watcher_state> self,
    azure_watcher_wiring wiring);

}  // namespace runwarden

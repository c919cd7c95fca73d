#pragma once
// The AWS watcher (the EC2 lifecycle watcher, beside the Azure and Google Cloud ones): polls the
// EC2 instance metadata service every poll interval through the HTTP port, one request at a time,
// and tells its listener what calls for a drain (lifecycle_trigger, once per latch) and who the
// instance is (instance_identity, once). Decisions (which request next, what an answer means, when
// to retry) are the pure imds_poller's; this actor only carries them out: requests to the port,
// waits as delayed_send to itself (so virtual time drives them in tests), reports to the log.
// Without its HTTP port it can watch nothing, so it ends with the port's reason and its
// supervisor decides.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/lifecycle_client_messages.hpp"
#include "src/aws/imds/imds_poller.hpp"
#include "src/aws/imds/scheduled_event_watch.hpp"

namespace runwarden {

struct aws_watcher_wiring {
  http_port_actor http_port;
  aws_watcher_listener_actor listener;
  imds_poller_config poller;
  std::chrono::milliseconds poll_interval{std::chrono::seconds{1}};
  // What EC2's scheduled events do (read when poller.scheduled_events_interval is set).
  scheduled_event_policy scheduled_events = {};
  // Scheduled events name wall-clock times; tests give a clock of their own.
  std::function<wall_time()> wall_clock = [] { return std::chrono::system_clock::now(); };
  // Called whenever the metadata service answered (2xx, or 404 for a page with nothing to
  // say), for /metrics; may be empty. The caller reads the clock.
  std::function<void()> answered = {};
};

struct aws_watcher_state {
  static inline const char* name = "aws_watcher";
  std::optional<imds_poller> poller;
  std::optional<scheduled_event_watch> scheduled_events;
  std::optional<wall_time> scheduled_due_armed;  // the due time a timer is out for
  aws_watcher_wiring wiring;
  std::uint64_t next_id = 1;
  std::uint64_t waiting_for = 0;  // the request in flight; 0 when none
};

// Polls once at once, then every wiring.poll_interval.
// The watcher as it runs: besides its HTTP port's answers (aws_watcher_actor), the
// waits it sets itself (lifecycle_messages.hpp): the poll tick, a retry, a scheduled event due.
using aws_watcher_implementation =
    aws_watcher_actor::extend<caf::reacts_to<imds_poll_atom>, caf::reacts_to<imds_retry_atom>,
                              caf::reacts_to<scheduled_due_atom>>;

aws_watcher_implementation::behavior_type aws_watcher_behavior(
    aws_watcher_implementation::stateful_pointer<aws_watcher_state> self,
    aws_watcher_wiring wiring);

}  // namespace runwarden

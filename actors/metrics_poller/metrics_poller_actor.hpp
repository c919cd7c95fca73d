#pragma once
// The metrics poller: scrapes the runner's /metrics through an HTTP port on an interval and
// tells the warden how many jobs the runner has and its own word for its state (gitlab-
// runner 19.1+), whenever that changes (known or not). One scrape at a time; the next is scheduled
// when the answer arrives, so a slow runner is never asked twice at once. The runner starts
// listening a moment after it starts, so until its first answer a failed scrape is retried quickly
// (first_answer_retry), not an interval later, for a bounded number of tries. While the runner
// drains it scrapes more often (interval_draining), so that the jobs counting down show live in
// status and STATUS= texts: it follows the listener's snapshots (the warden's subscription) for
// that, and scrapes at once when a drain begins. No socket of its own: tests and the simulation
// script the port.

#include <chrono>
#include <optional>
#include <string>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/metrics_messages.hpp"

namespace runwarden {

// Until the first answer: the wait between tries, and how many such quick tries at most
// (30 s worth) before the interval applies to a runner that never answers.
inline constexpr std::chrono::milliseconds first_answer_retry{250};
inline constexpr std::uint32_t first_answer_retries_max = 120;

struct metrics_poller_wiring {
  std::string url;  // http://127.0.0.1:9252/metrics
  std::chrono::milliseconds interval{std::chrono::seconds{5}};
  std::chrono::milliseconds timeout{std::chrono::seconds{2}};
  http_port_actor http_port;
  metrics_listener_actor listener;
  // The interval while the listener (then a warden, subscribed to) says it shuts down;
  // none: one interval throughout, and no subscription.
  std::optional<std::chrono::milliseconds> interval_draining = std::nullopt;
};

struct metrics_poller_state {
  static inline const char* name = "metrics_poller";
  metrics_poller_wiring wiring;
  std::uint64_t next_request_id = 1;
  std::optional<std::uint64_t> in_flight;
  // What the listener last heard: nothing yet, or a job count (maybe unknown) and state.
  std::optional<runner_load_observed> told;
  std::string last_error;  // logged once per distinct failure, not once per scrape
  bool answered = false;   // the runner answered a scrape at least once
  std::uint32_t quick_retries = 0;
  bool draining = false;  // the warden's last snapshot said shutting_down
  // Only the poll scheduled last counts, so that scraping at once when a drain begins
  // does not start a second chain of polls beside the first.
  std::uint64_t poll_generation = 0;
};

// The poller as it runs: besides its peers' interface, the answers of its HTTP port and
// (scrape_due_atom, generation), which it sends itself for the next scrape.
using scrape_due_atom = caf::atom_constant<caf::atom("scrapedue")>;
using metrics_poller_implementation =
    metrics_poller_actor::extend<caf::reacts_to<http_response>,
                                 caf::reacts_to<scrape_due_atom, std::uint64_t>>;

metrics_poller_implementation::behavior_type metrics_poller_behavior(
    metrics_poller_implementation::stateful_pointer<metrics_poller_state> self,
    metrics_poller_wiring wiring);

}  // namespace runwarden

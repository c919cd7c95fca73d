#pragma once
// The lifecycle hooks actor: the warden's lifecycle client (warden_messages.hpp). When the
// instance starts terminating (the warden passes on the watcher's terminate transition or
// spot notice, and a restarted hooks actor sees it in the warden's snapshot) it finds its
// group and terminate hook through the Auto Scaling client, records a heartbeat at once
// (the hook has waited since before the metadata said so), reads whether the group retains
// the instance past the hook (group_retention.hpp) and tells the warden
// lifecycle_action_pending; the drain machine then paces heartbeats and asks for the
// completion once the runner is gone and unregistered. A look that finds no hook ends in
// lifecycle_lookup_ended, so that the drain, which waits for the look, can end.
//
// Completion never gives up while AWS may still take it: throttling, 5xx and lost answers
// are asked again with capped backoff; "no active lifecycle action" counts as done (an
// earlier runwarden completed it, or it timed out). Only a refusal (a missing permission, a
// bad request) ends it unconfirmed, loudly. Each outcome reaches the warden as
// lifecycle_action_completed. A failed heartbeat is asked again with backoff a few times
// (hook_calls.cpp), well inside the half heartbeat timeout before the next one is due.
//
// The launch hook (launch_hook.hpp): an instance that starts in Pending:Wait completes its
// launch hook with CONTINUE as soon as the runner is actually ready (running and, when its
// metrics are read, answering them), and with ABANDON when it is not ready in time or a
// drain begins first.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "caf/all.hpp"
#include "messages/autoscaling_messages.hpp"
#include "messages/lifecycle_client_messages.hpp"
#include "src/aws/autoscaling_answers.hpp"
#include "src/drain/warden_snapshot.hpp"
#include "src/telemetry/metric_labels.hpp"

namespace runwarden {

struct lifecycle_hooks_wiring {
  autoscaling_client_actor autoscaling_client;
  lifecycle_hooks_listener_actor warden;
  std::optional<std::string> hook_name;  // aws.lifecycle_hook; empty: the only terminate hook
  // How late the watcher may see a transition: the hook started up to this long before.
  std::chrono::milliseconds seen_late_by{std::chrono::seconds{1}};
  std::chrono::milliseconds retry_initial{std::chrono::seconds{1}};
  std::chrono::milliseconds retry_max{std::chrono::seconds{30}};
  std::chrono::milliseconds call_budget{std::chrono::seconds{30}};
  std::uint64_t random_seed = 0;
  // The launch hook: answered when set; ready means running, and with metrics read, the
  // metrics answering; ABANDON past the ready timeout (or the hook's own end, if sooner).
  bool answer_launch_hook = true;
  std::optional<std::string> launch_hook_name = std::nullopt;  // aws.launch_hook
  bool ready_needs_metrics = false;
  std::chrono::milliseconds launch_ready_timeout{std::chrono::minutes{10}};
  // Told how each terminate hook heartbeat and completion ended (for /metrics); may be empty.
  std::function<void(heartbeat_outcome)> heartbeat_observer = {};
  std::function<void(completion_result)> completion_observer = {};
};

// The launch hook this instance waits on, once found.
struct launch_wait {
  lifecycle_hook hook;
  instant give_up_at{0};
  bool answered = false;
};

struct lifecycle_hooks_state {
  static inline const char* name = "lifecycle_hooks";
  lifecycle_hooks_wiring wiring;
  std::optional<std::string> instance_id;
  std::optional<std::string> group_name;
  bool looking = false;         // a lookup is under way or waiting to retry
  bool settled = false;         // the lookup ended: a hook was handed over, or none applies
  bool seen_waiting = false;    // the API showed Terminating:Wait; retries read the hooks only
  std::string lifecycle_state;  // as last read, and told the warden
  // The group retains this instance (Terminating:Retained, instance_retention.hpp): no hook
  // waits any more, and the instance is terminated once the runner is gone.
  bool retained = false;
  std::uint32_t lookups_failed = 0;
  std::optional<instant> not_yet_since;  // the first look that found the API behind
  std::optional<instant> failing_since;  // the first failed look of a run of failures
  std::uint32_t completions_failed = 0;
  std::uint64_t random_state = 0;
  std::optional<warden_snapshot> last_snapshot;
  std::optional<launch_wait> launch;
  std::uint32_t launch_lookups_failed = 0;
  std::map<std::uint64_t, std::function<void()>> deferred;  // run_later, by id
  std::uint64_t next_deferred_id = 1;
};

// The hooks actor as it runs: besides its peers' interface (lifecycle_hooks_actor),
// (run_later_atom, id) when a wait it set itself is over (hook_calls.hpp's run_later).
using run_later_atom = caf::atom_constant<caf::atom("hooklater")>;
using lifecycle_hooks_implementation =
    lifecycle_hooks_actor::extend<caf::reacts_to<run_later_atom, std::uint64_t>>;

lifecycle_hooks_implementation::behavior_type lifecycle_hooks_behavior(
    lifecycle_hooks_implementation::stateful_pointer<lifecycle_hooks_state> self,
    lifecycle_hooks_wiring wiring);

}  // namespace runwarden

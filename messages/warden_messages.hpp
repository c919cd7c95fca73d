#pragma once
// The CAF vocabulary between the warden (the coordinator) and its ports: atoms, the typed
// interface of the process port, and the drain machine's events as local message types.
//
// The events never cross a process boundary as CAF messages (the journal writes its own
// records), so they are allowed as unsafe local types instead of being given inspect()
// overloads that CAF 0.17 could not apply to std::optional anyway.

#include <cstddef>
#include <cstdint>

#include <string_view>

#include "caf/all.hpp"
#include "src/drain/drain_machine.hpp"
#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

using spawn_atom = caf::atom_constant<caf::atom("spawn")>;
using signal_atom = caf::atom_constant<caf::atom("signal")>;
using exited_atom = caf::atom_constant<caf::atom("exited")>;
using subscribe_atom = caf::atom_constant<caf::atom("subscribe")>;
using unsubscribe_atom = caf::atom_constant<caf::atom("unsubscrib")>;
using notify_atom = caf::atom_constant<caf::atom("notify")>;
using adopt_atom = caf::atom_constant<caf::atom("adopt")>;
using unregister_atom = caf::atom_constant<caf::atom("unregister")>;
using heartbeat_atom = caf::atom_constant<caf::atom("heartbeat")>;
using complete_atom = caf::atom_constant<caf::atom("complete")>;
using refused_atom = caf::atom_constant<caf::atom("refused")>;

// Status subscribers the warden keeps at once (every Watch call is one, and a few of
// runwarden's own actors). Past it a subscription is refused with (refused_atom) and the
// subscriber is neither kept nor sent snapshots; those already subscribed are unaffected.
inline constexpr std::size_t status_subscribers_max = 1024;
// Of those, kept free for runwarden's own actors (the lifecycle client subscribes after
// every restart): outside callers (Watch) are refused before they could take these.
inline constexpr std::size_t internal_subscribers_max = 16;

// The unregistration step runs under a supervisor as this child; the warden listens to that
// supervisor and asks each new incarnation again while an unregistration is under way.
inline constexpr std::string_view unregistration_child_id = "unregistration";

// An OS signal delivered to runwarden itself, as the signal port saw it.
struct os_signal_received {
  int signal_number = 0;
};

// The unregistration step's progress, for status texts only (the machine waits for
// unregistration_finished): attempts made so far, and the wait before the next one while
// the last failed. Not journaled: a restarted runwarden counts afresh.
struct unregistration_progress {
  std::uint32_t attempts = 0;
  std::optional<duration> next_attempt_in;
};

// Sent once to the warden's exit listener when the warden reaches gone.
struct warden_exited {
  int exit_code = 0;
  std::string reason;
};

// The warden's questions and subscriptions (the control API and its tests use them):
//   (get_atom)                      -> warden_snapshot
//   (subscribe_atom, actor)         the actor receives a warden_snapshot now and on every
//                                   change, until it goes down or unsubscribes; or, past
//                                   status_subscribers_max, one (refused_atom) and nothing more
//   (unsubscribe_atom, actor)
//   shutdown_requested              -> warden_snapshot (after the request took effect)
//   forceful_shutdown_requested     -> warden_snapshot
// The warden tells its notifier (webhooks, callbacks):
//   (notify_atom, notification_kind, std::vector<shutdown_callback>, warden_snapshot)
// its unregistrar, which answers the warden with unregistration_finished once confirmed:
//   (unregister_atom)
// and the cloud's lifecycle client, which answers completion with lifecycle_action_completed
// (and a look for the hook with lifecycle_action_pending or lifecycle_lookup_ended):
//   (heartbeat_atom, std::string hook_name)
//   (complete_atom, std::string hook_name, lifecycle_result)
// Load, unregistration and lifecycle news reach the warden as the machine's own events;
// unregistration_progress only informs the snapshot.

// The process port owns the runner's process. `spawn` starts the configured command; the
// port answers the sender with runner_spawned or runner_spawn_failed, later runner_exited.
// `signal` sends a signal to the process group of the given runner pid and, once kill()
// returned, answers the sender with runner_signal_delivered. `adopt` watches a
// runner an earlier runwarden started (recovery) and answers runner_exited when it ends.
using process_port_actor =
    caf::typed_actor<caf::reacts_to<spawn_atom>,
                     caf::reacts_to<signal_atom, std::int64_t, std::int32_t>,
                     caf::reacts_to<adopt_atom, std::int64_t>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::warden_started)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_spawned)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_spawn_failed)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_exited)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::shutdown_requested)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::forceful_shutdown_requested)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::warden_snapshot)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::notification_kind)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(std::vector<runwarden::shutdown_callback>)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::reload_requested)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::timer_fired)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::os_signal_received)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::warden_exited)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::unregistration_progress)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_load_observed)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::unregistration_finished)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::lifecycle_action_pending)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::lifecycle_action_completed)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::lifecycle_lookup_ended)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_signal_delivered)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::lifecycle_client_unavailable)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::lifecycle_result)

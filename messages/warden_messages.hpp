#pragma once
// The CAF vocabulary between the warden (the coordinator), its ports and its followers: atoms,
// the typed interfaces of the warden and the process port, and the drain machine's events as
// local message types.
//
// The events never cross a process boundary as CAF messages (the journal writes its own
// records), so they are allowed as unsafe local types instead of being given inspect()
// overloads that CAF 0.17 could not apply to std::optional anyway.

#include <cstddef>
#include <cstdint>
#include <functional>

#include "caf/all.hpp"
#include "messages/lifecycle_messages.hpp"
#include "messages/notifier_messages.hpp"
#include "messages/supervisor_messages.hpp"
#include "src/drain/drain_machine.hpp"
#include "src/drain/warden_snapshot.hpp"
#include "src/runner/process_identity.hpp"

namespace runwarden {

using spawn_atom = caf::atom_constant<caf::atom("spawn")>;
using signal_atom = caf::atom_constant<caf::atom("signal")>;
using exited_atom = caf::atom_constant<caf::atom("exited")>;
using subscribe_atom = caf::atom_constant<caf::atom("subscribe")>;
using unsubscribe_atom = caf::atom_constant<caf::atom("unsubscrib")>;
using adopt_atom = caf::atom_constant<caf::atom("adopt")>;
using release_atom = caf::atom_constant<caf::atom("release")>;
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

// An OS signal delivered to runwarden itself, as the signal port saw it. `recorded`, when
// set, is called once the warden has acted on it (its journal holds the drain it started),
// so that the keeper, which kept the signal for a warden that might die first, forgets it
// only then.
// `resent`: the keeper hands it on again to a warden started after the one that had it; that
// one may have journaled it already, so a drain under way is not told it twice (a second
// SIGTERM would mean "now").
struct os_signal_received {
  os_signal_received() = default;
  os_signal_received(int number, std::function<void()> recorded_then = {},  // NOLINT
                     bool resent_by_keeper = false)
      : signal_number(number), recorded(std::move(recorded_then)), resent(resent_by_keeper) {}
  int signal_number = 0;
  std::function<void()> recorded;
  bool resent = false;
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
  std::optional<trigger_source> trigger;  // what started the drain, if one did
};

// Whoever follows the warden's status: a warden_snapshot at once and at every change, or,
// past status_subscribers_max, one (refused_atom) and nothing more.
using status_subscriber_actor =
    caf::typed_actor<caf::reacts_to<warden_snapshot>, caf::reacts_to<refused_atom>>;

// The process port owns the runner's process. `spawn` starts the configured command; the
// port answers the sender with runner_spawned or runner_spawn_failed, later runner_exited.
// A spawned runner waits at a start gate until `release` (pid, true), which the warden
// sends once its journal holds the pid; (pid, false) ends it without running the command.
// `signal` sends a signal to the process group of the given runner pid and, once kill()
// returned, answers the sender with runner_signal_delivered. `adopt` watches a
// runner an earlier runwarden started (recovery; its pid and identity as the journal has
// them) and answers runner_exited when it ends, or at once when the pid is not provably it.
using process_port_actor =
    caf::typed_actor<caf::reacts_to<spawn_atom>,
                     caf::reacts_to<signal_atom, std::int64_t, std::int32_t>,
                     caf::reacts_to<adopt_atom, std::int64_t, process_identity>,
                     caf::reacts_to<release_atom, std::int64_t, bool>>;

// Whoever takes runwarden's own signals from the signal port: the warden.
using os_signal_listener_actor = caf::typed_actor<caf::reacts_to<os_signal_received>>;

// Whoever waits for the warden's end (runwarden run, an embedding host's relay, the
// simulation): one warden_exited when the warden reaches gone, then each OS signal
// runwarden receives afterwards (os_signal_received), which ends a linger.
using warden_exit_listener_actor =
    caf::typed_actor<caf::reacts_to<warden_exited>, caf::reacts_to<os_signal_received>>;

// The unregistration step (actors/unregistrar): asked with (unregister_atom) when the drain
// machine unregisters, and again (to try every waiting runner now) as the deadline nears;
// it answers the asker with unregistration_progress on every attempt, then one
// unregistration_finished (unregistration_listener_actor).
using unregistration_actor = caf::typed_actor<caf::reacts_to<unregister_atom>>;
using unregistration_listener_actor = caf::typed_actor<caf::reacts_to<unregistration_progress>,
                                                       caf::reacts_to<unregistration_finished>>;

// The warden, as its peers may address it. A worker holds only the part it uses (the view
// named in its wiring), which a warden_actor handle converts to.
//
// Questions and subscriptions (the control API, an embedding host, the simulation):
//   (get_atom)                        -> warden_snapshot
//   shutdown_requested                -> warden_snapshot (after the request took effect)
//   forceful_shutdown_requested       -> warden_snapshot
//   job_reported                      -> warden_snapshot (a job the runner started or ended:
//                                     runwarden ctl job, Warden.ReportJob)
//   (subscribe_atom, subscriber)      the subscriber receives a warden_snapshot now and on
//                                     every change, until it goes down or unsubscribes; or,
//                                     past status_subscribers_max, one (refused_atom)
//   (unsubscribe_atom, subscriber)
//   os_signal_received                from the signal port: SIGTERM, SIGINT and SIGQUIT
//                                     drain, SIGHUP reloads; once gone it is passed on to
//                                     the exit listener, which may be lingering for it
// The process port's answers (process_port_actor):
//   runner_spawned, runner_spawn_failed, runner_exited, runner_signal_delivered
// The workers' news, each the drain machine's own event or a fact for the snapshot:
//   runner_load_observed              the metrics poller
//   lifecycle_trigger                 a cloud's watcher: a drain is called for
//   instance_identity                 the EC2 watcher: who this instance is
//   instance_group                    the lifecycle hooks actor: its Auto Scaling group
//   lifecycle_action_pending          the lifecycle client: a hook or event to answer
//   lifecycle_action_completed        the lifecycle client: the completion's outcome
//   lifecycle_lookup_ended            the lifecycle client: no hook applies
//   unregistration_progress           the unregistration step, for status texts
//   unregistration_finished           the unregistration step, once
//   notification_settled              the notifier: a notification delivered or given up
//   child_incarnation                 a worker's supervisor: a worker (re)started
// What the warden sends its peers is in their interfaces: process_port_actor,
// notifier_actor, unregistration_actor, lifecycle_client_actor.
using warden_actor = caf::typed_actor<
    caf::replies_to<caf::get_atom>::with<warden_snapshot>,
    caf::replies_to<shutdown_requested>::with<warden_snapshot>,
    caf::replies_to<forceful_shutdown_requested>::with<warden_snapshot>,
    caf::replies_to<job_reported>::with<warden_snapshot>,
    caf::reacts_to<subscribe_atom, status_subscriber_actor>,
    caf::reacts_to<unsubscribe_atom, status_subscriber_actor>, caf::reacts_to<os_signal_received>,
    caf::reacts_to<runner_spawned>, caf::reacts_to<runner_spawn_failed>,
    caf::reacts_to<runner_exited>, caf::reacts_to<runner_signal_delivered>,
    caf::reacts_to<runner_load_observed>, caf::reacts_to<lifecycle_trigger>,
    caf::reacts_to<instance_identity>, caf::reacts_to<instance_group>,
    caf::reacts_to<lifecycle_action_pending>, caf::reacts_to<lifecycle_action_completed>,
    caf::reacts_to<lifecycle_lookup_ended>, caf::reacts_to<unregistration_progress>,
    caf::reacts_to<unregistration_finished>, caf::reacts_to<notification_settled>,
    caf::reacts_to<child_incarnation>>;

// The least view of the warden, a follower's: it subscribes to the status. Each worker's
// view of the warden extends it with what that worker tells the warden.
using status_source_actor =
    caf::typed_actor<caf::reacts_to<subscribe_atom, status_subscriber_actor>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::warden_started)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_spawned)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_spawn_failed)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_exited)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::shutdown_requested)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::forceful_shutdown_requested)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::job_reported)
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
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::process_identity)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::lifecycle_client_unavailable)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::lifecycle_result)

#pragma once
// The warden: the coordinator actor around the drain machine. It turns messages into
// machine events, stamps them with the actor clock's time (virtual under the test
// coordinator), and turns the machine's effects into messages to its ports. It decides
// nothing itself. It answers status questions and keeps subscribers (Watch) up to date.
//
// The notifier may be restarted by a supervisor; the warden listens to it (the supervisor
// sends it a child_incarnation for each start of child_id::notifier, messages/child_ids.hpp)
// and sends the new notifier every notification the old one had not settled. A notification
// the old one was delivering when it crashed may so be delivered twice, never lost. The same
// holds for the unregistration step (child_id::unregistration): a new incarnation is asked
// again while an unregistration is under way, and the lifecycle client
// (child_id::lifecycle_hooks, or child_id::azure_watcher for Azure's scheduled events) is
// asked again for a completion under way.

#include <functional>
#include <vector>

#include "caf/all.hpp"
#include "messages/instance_end_messages.hpp"
#include "messages/lifecycle_client_messages.hpp"
#include "messages/notifier_messages.hpp"
#include "messages/supervisor_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/drain/drain_machine.hpp"
#include "src/drain/warden_snapshot.hpp"
#include "src/journal/journal_entry.hpp"
#include "src/retirement/retirement_machine.hpp"

namespace runwarden {

// The warden's own reminder to read the builds' disk (recycle_disk_path).
using disk_check_atom = caf::atom_constant<caf::atom("diskcheck")>;

using effect_observer = std::function<void(const drain_effect&, const warden_snapshot&)>;
// Appends one event and its effects to the journal; an error text when the journal stops
// being written (a refusal the disk may lift is the journal's to hold and retry).
using journal_sink = std::function<std::optional<std::string>(instant, const drain_event&,
                                                              const std::vector<drain_effect>&)>;

// Sent to the notifier and not yet settled by it: at most one per notification kind.
struct unsettled_notification {
  notification_kind kind = notification_kind::drain_started;
  std::vector<shutdown_callback> callbacks;
  warden_snapshot snapshot;
};

struct warden_state {
  static inline const char* name = "warden";
  std::optional<drain_machine> machine;
  process_port_actor process_port;
  warden_exit_listener_actor exit_listener;
  notifier_actor notifier;  // may be empty: no webhooks, no callbacks (or none started yet)
  std::vector<unsettled_notification> unsettled;
  unregistration_actor unregistrar;     // may be empty when the drain machine never unregisters
  bool unregistrar_supervised = false;  // an empty one is still to come (warden_wiring)
  // May be empty when no cloud lifecycle hooks are watched.
  lifecycle_client_actor lifecycle_client;
  effect_observer observer;
  std::function<void(const warden_snapshot&)> snapshot_observer;
  journal_sink journal;
  bool journal_failed = false;                       // logged once; the drain goes on unrecorded
  std::vector<status_subscriber_actor> subscribers;  // at most status_subscribers_max
  std::uint64_t version = 0;
  warden_snapshot last_published;
  std::function<std::chrono::system_clock::time_point()> wall_clock;
  // Where the runner runs, once the metadata service and the hooks actor have said.
  std::string instance_id;
  std::string auto_scaling_group;
  std::string auto_scaling_lifecycle_state;  // as the hooks actor last read it
  // The unregistration step's last progress report (status texts).
  std::uint32_t unregistration_attempts = 0;
  std::optional<instant> next_unregistration_at;
  // The retirement machine beside the drain (warden_retirement.hpp); none: never retires.
  std::optional<retirement_machine> retirement;
  std::optional<retire_instance> retirement_decision;  // this run's, once decided
  instance_end_actor instance_end;                     // may be empty: nothing ends the instance
  bool instance_ending = false;                        // asked once
  std::function<std::optional<std::uint32_t>(const std::string&)> disk_used_percent;
  std::chrono::milliseconds disk_check_interval{0};
  std::function<std::optional<std::chrono::milliseconds>()> machine_uptime;  // warden_wiring
};

struct warden_wiring {
  drain_config config;
  process_port_actor process_port;
  // Receives one warden_exited when the warden reaches gone, then each OS signal runwarden
  // receives (os_signal_received), which ends a linger.
  warden_exit_listener_actor exit_listener;
  notifier_actor notifier = {};
  unregistration_actor unregistrar = {};
  // An unregistration worker runs under a supervisor (the assembly's way): its first
  // incarnation comes with the supervisor's child_incarnation, and an unregistration asked
  // before then waits for it instead of failing for want of an unregistrar.
  bool unregistrar_supervised = false;
  lifecycle_client_actor lifecycle_client = {};
  // Sees every effect after it is carried out (logging, metrics).
  effect_observer observer = {};
  // Sees every snapshot the warden publishes (metrics: changes without effects).
  std::function<void(const warden_snapshot&)> snapshot_observer = {};
  // Records each event with its effects before any of them is carried out.
  journal_sink journal = {};
  // The entries of a drain an earlier runwarden did not finish (recovery): folded into the
  // machine instead of starting afresh, then reconciled with the world.
  std::vector<journal_entry> recovered = {};
  // Puts a trigger's wall-clock deadline (a spot notice's time) on the machine's clock; the
  // simulation gives its own.
  std::function<std::chrono::system_clock::time_point()> wall_clock = [] {
    return std::chrono::system_clock::now();
  };
  // [runner] after_exit, on_give_up, recycling (src/retirement); none: the runner is only
  // restarted, as before. The instance end ends a retired instance once gone.
  std::optional<retirement_policy> retirement = std::nullopt;
  instance_end_actor instance_end = {};
  // The disk port for recycle_disk_path: its use in percent, nothing when unreadable; read
  // every disk_check_interval while a threshold is set.
  std::function<std::optional<std::uint32_t>(const std::string&)> disk_used_percent = {};
  std::chrono::milliseconds disk_check_interval{std::chrono::minutes{1}};
  // The uptime port for recycle_after_uptime: how long the machine has been up (the host
  // reads its kernel's boot clock), nothing when unreadable. Empty (the simulation, tests):
  // the bound counts from runwarden's first start in its journal.
  std::function<std::optional<std::chrono::milliseconds>()> machine_uptime = {};
};

// The warden as it runs: besides its peers' interface (warden_actor), the messages it sends
// itself: each timer the drain machine arms (timer_fired), and lifecycle_client_unavailable
// when a completion is due and no lifecycle client runs.
using warden_implementation =
    warden_actor::extend<caf::reacts_to<timer_fired>, caf::reacts_to<lifecycle_client_unavailable>,
                         caf::reacts_to<retirement_timer_fired>, caf::reacts_to<disk_check_atom>>;

// The warden stays up after gone, so that late status questions still get an answer;
// whoever spawned it ends it.
warden_implementation::behavior_type warden_behavior(
    warden_implementation::stateful_pointer<warden_state> self, warden_wiring wiring);

// Maps a signal runwarden itself received to the machine event it means; nullopt for
// signals runwarden does not act on.
std::optional<drain_event> event_for_os_signal(int signal_number);

}  // namespace runwarden

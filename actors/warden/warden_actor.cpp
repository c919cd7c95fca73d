// See warden_actor.hpp. One handler per event message, one translation per effect.
#include "actors/warden/warden_actor.hpp"

#include <algorithm>
#include <csignal>

#include "actors/warden/warden_retirement.hpp"
#include "messages/child_ids.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/aws/imds/lifecycle_trigger_request.hpp"
#include "src/logging/logging.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

instant now_of(warden_pointer self) {
  return std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
}

warden_snapshot current_snapshot(warden_pointer self) {
  auto snapshot = snapshot_of(self->state.machine->state(), now_of(self), self->state.version);
  snapshot.instance_id = self->state.instance_id;
  snapshot.auto_scaling_group = self->state.auto_scaling_group;
  snapshot.auto_scaling_lifecycle_state = self->state.auto_scaling_lifecycle_state;
  if (snapshot.phase == drain_phase::unregistering) {
    snapshot.unregistration_attempts = self->state.unregistration_attempts;
    snapshot.next_unregistration_at = self->state.next_unregistration_at;
  }
  return snapshot;
}

void send_to_notifier(warden_pointer self, const unsettled_notification& notification) {
  if (self->state.notifier)
    self->send(self->state.notifier, notify_atom::value, notification.kind, notification.callbacks,
               notification.snapshot);
}

// Kept until settled, replacing an older one of its kind (the newer one says more).
void notify(warden_pointer self, unsettled_notification notification) {
  auto& unsettled = self->state.unsettled;
  std::erase_if(unsettled, [&](const auto& u) { return u.kind == notification.kind; });
  unsettled.push_back(std::move(notification));
  send_to_notifier(self, unsettled.back());
}

void on_settled(warden_pointer self, const notification_settled& settled) {
  std::erase_if(self->state.unsettled, [&](const auto& u) {
    return u.kind == settled.kind && u.snapshot.version == settled.version;
  });
}

// A (re)started worker knows nothing of its predecessor's work: the notifier gets what is
// unsettled, the unregistration step is asked again while one is under way (unregistering
// is idempotent: a runner already gone counts as done).
void on_child_started(warden_pointer self, const child_incarnation& child) {
  auto& state = self->state;
  if (!child.handle) return;
  const auto started = child.handle.address();
  if (child.id == child_id::notifier && started != state.notifier.address()) {
    state.notifier = handle_of<notifier_actor>(child);
    for (const auto& notification : state.unsettled) send_to_notifier(self, notification);
  } else if (child.id == child_id::unregistration && started != state.unregistrar.address()) {
    state.unregistrar = handle_of<unregistration_actor>(child);
    if (state.machine->state().unregistration == step_progress::in_progress)
      self->send(state.unregistrar, unregister_atom::value);
  } else if ((child.id == child_id::lifecycle_hooks || child.id == child_id::azure_watcher) &&
             started != state.lifecycle_client.address()) {
    // It finds a hook still to be found from the snapshot it subscribes to; a completion
    // under way is asked again (completing twice is answered "no active lifecycle action").
    state.lifecycle_client = handle_of<lifecycle_client_actor>(child);
    const auto& machine = state.machine->state();
    if (machine.lifecycle_completion == step_progress::in_progress)
      self->send(state.lifecycle_client, complete_atom::value, machine.lifecycle->hook_name,
                 lifecycle_result::proceed);
  }
}

void carry_out(warden_pointer self, const drain_effect& effect, instant now) {
  auto& state = self->state;
  std::visit(
      [&](const auto& e) {
        using effect_type = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<effect_type, spawn_runner>) {
          self->send(state.process_port, spawn_atom::value);
        } else if constexpr (std::is_same_v<effect_type, signal_runner>) {
          self->send(state.process_port, signal_atom::value, e.pid,
                     static_cast<std::int32_t>(e.signal_number));
        } else if constexpr (std::is_same_v<effect_type, arm_timer>) {
          const auto delay = e.at > now ? e.at - now : duration::zero();
          self->delayed_send(self, delay, timer_fired{e.kind, e.id});
        } else if constexpr (std::is_same_v<effect_type, exit_warden>) {
          // A retirement's drain ends the instance first (warden_retirement.hpp).
          const warden_exited exited{e.exit_code, e.reason, current_snapshot(self).trigger};
          const auto tell = [self, exited] { self->send(self->state.exit_listener, exited); };
          if (!end_instance_before_exit(self, tell)) tell();
        } else if constexpr (std::is_same_v<effect_type, send_notification>) {
          notify(self, {e.kind, e.callbacks, current_snapshot(self)});
        } else if constexpr (std::is_same_v<effect_type, unregister_runner>) {
          if (state.unregistrar) {
            self->send(state.unregistrar, unregister_atom::value);
          } else if (state.unregistrar_supervised) {
            // on_child_started asks the first incarnation: the unregistration is in progress.
          } else {
            self->send(self, unregistration_finished{false, "no unregistrar is configured"});
          }
        } else if constexpr (std::is_same_v<effect_type, record_lifecycle_heartbeat>) {
          if (state.lifecycle_client)
            self->send(state.lifecycle_client, heartbeat_atom::value, e.hook_name);
        } else if constexpr (std::is_same_v<effect_type, complete_lifecycle_action>) {
          // Whether to wait for a client or give up is the machine's to decide.
          if (state.lifecycle_client) {
            self->send(state.lifecycle_client, complete_atom::value, e.hook_name, e.result);
          } else {
            self->send(self, lifecycle_client_unavailable{});
          }
        }
        // change_status and report only inform: the observer logs them.
      },
      effect);
}

// Subscribers hear of every change, not of every event: a stale timer changes nothing.
void publish(warden_pointer self) {
  auto& state = self->state;
  auto snapshot = current_snapshot(self);
  if (same_state(snapshot, state.last_published)) return;
  state.last_published = snapshot;
  if (state.snapshot_observer) state.snapshot_observer(snapshot);
  for (const auto& subscriber : state.subscribers) self->send(subscriber, snapshot);
}

void handle_event(warden_pointer self, drain_event event) {
  auto& state = self->state;
  const auto now = now_of(self);
  classify_runner_end(self, event, now);  // a runner's end that retires carries it
  const auto reported_before = state.machine->state().jobs_reported.jobs().size();
  const auto effects = state.machine->step(event, now);
  ++state.version;
  if (state.journal) {
    if (auto failed = state.journal(now, event, effects); failed && !state.journal_failed) {
      state.journal_failed = true;
      warden_logger()->error("journal: {}; the drain goes on without being recorded", *failed);
    }
  }
  // A spawned runner waits at its start gate until its pid is in the journal (above), and
  // starts before any effect of this step reaches it (a signal would find no handler).
  if (const auto* spawned = std::get_if<runner_spawned>(&event)) {
    const auto& machine = state.machine->state();
    const bool taken = machine.runner == runner_state::alive && machine.runner_pid == spawned->pid;
    self->send(state.process_port, release_atom::value, spawned->pid, taken);
  }
  for (const auto& effect : effects) {
    carry_out(self, effect, now);
    if (state.observer) state.observer(effect, current_snapshot(self));
  }
  publish(self);
  // Recycling or the idle bound: a drain of its own, after this event's effects.
  if (auto drain = observe_for_retirement(self, event, reported_before, now))
    handle_event(self, std::move(*drain));
}

// After a fold of the journal the machine believes things of the world (a runner alive,
// timers armed, a request in flight) that the world may no longer match. Each is made true
// again, level-triggered: idempotent re-sends, never a fresh runner for a drain under way.
void reconcile(warden_pointer self) {
  auto& state = self->state;
  const auto& machine = state.machine->state();
  const auto now = now_of(self);
  for (const auto& rearm : state.machine->timer_rearms()) carry_out(self, rearm, now);
  if (machine.runner == runner_state::spawning) self->send(state.process_port, spawn_atom::value);
  if (machine.runner == runner_state::alive && machine.runner_pid) {
    const auto pid = *machine.runner_pid;
    self->send(state.process_port, adopt_atom::value, pid, machine.runner_identity);
    // A signal is sent once: only one whose delivery the journal does not record goes again,
    // and not to a runner that already says it is in that shutdown (gitlab-runner 19.1+).
    const auto& says = machine.runner_reported_state;
    const bool heard = (machine.stage == escalation::graceful_sent &&
                        (says == "graceful-shutdown" || says == "forceful-shutdown")) ||
                       (machine.stage == escalation::forceful_sent && says == "forceful-shutdown");
    if (const auto again = state.machine->undelivered_signal(); again && !heard)
      self->send(state.process_port, signal_atom::value, pid, std::int32_t{*again});
  }
  if (machine.unregistration == step_progress::in_progress)
    carry_out(self, unregister_runner{}, now);
  if (machine.lifecycle_completion == step_progress::in_progress)
    carry_out(self,
              complete_lifecycle_action{machine.lifecycle->hook_name, lifecycle_result::proceed},
              now);
}

// The deadline the recovered drain goes on with, for the log.
std::string applied_deadline(const drain_state& machine, instant now) {
  if (!machine.drain_deadline) return "no drain deadline";
  if (*machine.drain_deadline <= now) return "drain deadline passed";
  return "drain deadline in " +
         format_duration(
             std::chrono::duration_cast<std::chrono::milliseconds>(*machine.drain_deadline - now));
}

void recover(warden_pointer self, const std::vector<journal_entry>& entries) {
  auto& state = self->state;
  for (const auto& entry : entries) {
    const auto reported_before = state.machine->state().jobs_reported.jobs().size();
    (void)state.machine->step(entry.event, entry.at);
    // The retirement machine's counts are rebuilt from the same entries, quietly.
    (void)observe_for_retirement(self, entry.event, reported_before, entry.at, true);
  }
  // The status version goes on from the earlier run's, which counted one per entry: a Watch
  // client ordering by it never sees it go back.
  for (const auto& entry : entries) state.version = std::max(state.version, entry.sequence);
  ++state.version;
  const auto& machine = state.machine->state();
  warden_logger()->warn("continuing from the journal ({} entries): status {}, runner {}, {}",
                        entries.size(), to_string(machine.status),
                        machine.runner_pid ? "pid " + std::to_string(*machine.runner_pid)
                                           : std::string{"not running"},
                        applied_deadline(machine, now_of(self)));
  reconcile(self);
  publish(self);
  // The retirement bounds go on: the uptime bound from the machine's boot (or the journal's
  // first start), an idle bound for what was left of it; the runner's jobs from the journal.
  if (state.retirement && machine.status != warden_status::gone)
    (void)observe_for_retirement(self, warden_started{}, 0, now_of(self));
  // A retirement (or a retained instance) that reached gone before runwarden stopped: the
  // instance is ended again (level-triggered: terminating twice is answered as done), and
  // runwarden exits.
  const bool retired = machine.drain_trigger == trigger_source::retirement ||
                       machine.drain_trigger == trigger_source::replacement ||
                       machine.instance_retained;
  if (machine.status == warden_status::gone && retired) {
    const warden_exited exited{machine.exit_code.value_or(0), machine.exit_reason,
                               machine.drain_trigger};
    const auto tell = [self, exited] { self->send(self->state.exit_listener, exited); };
    if (!end_instance_before_exit(self, tell)) tell();
  }
}

void subscribe(warden_pointer self, const status_subscriber_actor& subscriber) {
  auto& subscribers = self->state.subscribers;
  if (std::find(subscribers.begin(), subscribers.end(), subscriber) != subscribers.end()) return;
  if (subscribers.size() >= status_subscribers_max) {
    warden_logger()->warn("status subscription refused: {} subscribers already",
                          status_subscribers_max);
    self->send(subscriber, refused_atom::value);
    return;
  }
  subscribers.push_back(subscriber);
  self->monitor(subscriber);
  self->send(subscriber, current_snapshot(self));
}

void unsubscribe(warden_pointer self, const caf::actor_addr& subscriber) {
  auto& subscribers = self->state.subscribers;
  subscribers.erase(std::remove_if(subscribers.begin(), subscribers.end(),
                                   [&](const auto& s) { return s.address() == subscriber; }),
                    subscribers.end());
}

// The hooks actor's reading of this instance's group and LifecycleState. Status shows the
// state: Terminating:Retained above all (src/aws/instance_retention.hpp).
void on_instance_group(warden_pointer self, const instance_group& group) {
  auto& state = self->state;
  if (state.auto_scaling_group != group.group_name)
    warden_logger()->info("instance {} is in Auto Scaling group {}", group.instance_id,
                          group.group_name);
  state.instance_id = group.instance_id;
  state.auto_scaling_group = group.group_name;
  if (state.auto_scaling_lifecycle_state == group.lifecycle_state) return;
  warden_logger()->info("instance {} is {}", group.instance_id, group.lifecycle_state);
  state.auto_scaling_lifecycle_state = group.lifecycle_state;
  ++state.version;
  publish(self);
}

}  // namespace

std::optional<drain_event> event_for_os_signal(int signal_number) {
  switch (signal_number) {
    case SIGTERM:
      return shutdown_requested{.source = trigger_source::signal_terminate};
    case SIGINT:
      return shutdown_requested{.source = trigger_source::signal_interrupt};
    case SIGQUIT:
      return shutdown_requested{.source = trigger_source::signal_quit};
    case SIGHUP:
      return reload_requested{};
    default:
      return std::nullopt;
  }
}

warden_implementation::behavior_type warden_behavior(warden_pointer self, warden_wiring wiring) {
  auto& state = self->state;
  state.machine.emplace(std::move(wiring.config));
  state.process_port = std::move(wiring.process_port);
  state.exit_listener = std::move(wiring.exit_listener);
  state.notifier = std::move(wiring.notifier);
  state.unregistrar = std::move(wiring.unregistrar);
  state.unregistrar_supervised = wiring.unregistrar_supervised;
  state.lifecycle_client = std::move(wiring.lifecycle_client);
  state.observer = std::move(wiring.observer);
  state.snapshot_observer = std::move(wiring.snapshot_observer);
  state.journal = std::move(wiring.journal);
  state.wall_clock = std::move(wiring.wall_clock);
  if (wiring.retirement) state.retirement.emplace(std::move(*wiring.retirement));
  state.instance_end = std::move(wiring.instance_end);
  state.disk_check_interval = wiring.disk_check_interval;
  state.machine_uptime = std::move(wiring.machine_uptime);
  if (state.retirement && state.retirement->policy().recycle.disk_used_percent_max) {
    state.disk_used_percent = std::move(wiring.disk_used_percent);
    if (state.disk_used_percent) self->send(self, disk_check_atom::value);
  }
  self->set_down_handler([=](const caf::down_msg& down) { unsubscribe(self, down.source); });
  if (wiring.recovered.empty()) {
    handle_event(self, warden_started{});
  } else {
    recover(self, wiring.recovered);
  }
  return {
      [=](const runner_spawned& e) { handle_event(self, e); },
      [=](const runner_spawn_failed& e) { handle_event(self, e); },
      [=](const runner_exited& e) { handle_event(self, e); },
      [=](const timer_fired& e) { handle_event(self, e); },
      [=](disk_check_atom) {
        if (auto drain = on_disk_check(self, now_of(self))) handle_event(self, std::move(*drain));
      },
      [=](const retirement_timer_fired& e) {
        if (auto drain = on_retirement_timer(self, e, now_of(self)))
          handle_event(self, std::move(*drain));
      },
      [=](const runner_load_observed& e) { handle_event(self, e); },
      [=](const unregistration_finished& e) { handle_event(self, e); },
      [=](const lifecycle_action_pending& e) { handle_event(self, e); },
      [=](const lifecycle_action_completed& e) { handle_event(self, e); },
      [=](const lifecycle_lookup_ended& e) { handle_event(self, e); },
      [=](const runner_signal_delivered& e) { handle_event(self, e); },
      [=](const lifecycle_client_unavailable& e) { handle_event(self, e); },
      // The watcher speaks wall-clock time (a spot notice names one); the machine counts
      // instants of the actor clock. This edge is where the two are put side by side.
      // The lifecycle client hears of a terminate transition or spot notice too: it finds
      // the hook.
      [=](const lifecycle_trigger& trigger) {
        handle_event(self, as_shutdown_request(trigger, now_of(self), self->state.wall_clock()));
        if (calls_for_lifecycle_lookup(trigger.source) && self->state.lifecycle_client)
          self->send(self->state.lifecycle_client, trigger);
      },
      [=](const instance_identity& identity) {
        warden_logger()->info("instance {} in {} (account {})", identity.instance_id,
                              identity.region, identity.account_id);
        self->state.instance_id = identity.instance_id;
      },
      [=](const unregistration_progress& progress) {
        auto& state = self->state;
        state.unregistration_attempts = progress.attempts;
        state.next_unregistration_at.reset();
        if (progress.next_attempt_in)
          state.next_unregistration_at = now_of(self) + *progress.next_attempt_in;
        ++state.version;
        publish(self);
      },
      [=](const instance_group& group) { on_instance_group(self, group); },
      // Once gone there is nothing left to drain; the exit listener may still be waiting
      // for a signal to stop lingering (run_command.cpp).
      [=](const os_signal_received& signal) {
        const auto status = self->state.machine->state().status;
        if (status == warden_status::gone) {
          self->send(self->state.exit_listener, signal);
        } else if (signal.resent && status == warden_status::shutting_down) {
          warden_logger()->info(
              "signal {} handed on again after a restart of the warden: the "
              "drain under way has it already",
              signal.signal_number);
        } else if (auto event = event_for_os_signal(signal.signal_number)) {
          handle_event(self, *event);  // journaled before its effects
        }
        if (signal.recorded) signal.recorded();
      },
      [=](const shutdown_requested& e) {
        handle_event(self, e);
        return current_snapshot(self);
      },
      [=](const forceful_shutdown_requested& e) {
        handle_event(self, e);
        return current_snapshot(self);
      },
      [=](const job_reported& e) {
        handle_event(self, e);  // journaled before it counts
        return current_snapshot(self);
      },
      [=](caf::get_atom) { return current_snapshot(self); },
      [=](const notification_settled& settled) { on_settled(self, settled); },
      [=](const child_incarnation& child) { on_child_started(self, child); },
      [=](subscribe_atom, const status_subscriber_actor& subscriber) {
        subscribe(self, subscriber);
      },
      [=](unsubscribe_atom, const status_subscriber_actor& subscriber) {
        unsubscribe(self, subscriber.address());
        self->demonitor(subscriber.address());
      },
  };
}

}  // namespace runwarden

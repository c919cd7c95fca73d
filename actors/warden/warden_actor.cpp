// See warden_actor.hpp. One handler per event message, one translation per effect.
#include "actors/warden/warden_actor.hpp"

#include <csignal>

namespace runwarden {

namespace {

using warden_pointer = caf::stateful_actor<warden_state>*;

instant now_of(warden_pointer self) {
  return std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
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
          self->send(state.exit_listener, warden_exited{e.exit_code, e.reason});
        }
        // change_status and report only inform: the observer logs them.
      },
      effect);
  if (state.observer) state.observer(effect, now);
}

void handle_event(warden_pointer self, const drain_event& event) {
  const auto now = now_of(self);
  const auto effects = self->state.machine->step(event, now);
  for (const auto& effect : effects) carry_out(self, effect, now);
  if (self->state.machine->state().status == warden_status::gone) self->quit();
}

}  // namespace

std::optional<drain_event> event_for_os_signal(int signal_number) {
  switch (signal_number) {
    case SIGTERM: return shutdown_requested{.source = trigger_source::signal_terminate};
    case SIGINT: return shutdown_requested{.source = trigger_source::signal_interrupt};
    case SIGQUIT: return shutdown_requested{.source = trigger_source::signal_quit};
    case SIGHUP: return reload_requested{};
    default: return std::nullopt;
  }
}

caf::behavior warden_actor(caf::stateful_actor<warden_state>* self, warden_wiring wiring) {
  self->state.machine.emplace(std::move(wiring.config));
  self->state.process_port = std::move(wiring.process_port);
  self->state.exit_listener = std::move(wiring.exit_listener);
  self->state.observer = std::move(wiring.observer);
  handle_event(self, warden_started{});
  return {
      [=](const runner_spawned& e) { handle_event(self, e); },
      [=](const runner_spawn_failed& e) { handle_event(self, e); },
      [=](const runner_exited& e) { handle_event(self, e); },
      [=](const shutdown_requested& e) { handle_event(self, e); },
      [=](const reload_requested& e) { handle_event(self, e); },
      [=](const timer_fired& e) { handle_event(self, e); },
      [=](const os_signal_received& signal) {
        if (auto event = event_for_os_signal(signal.signal_number)) handle_event(self, *event);
      },
  };
}

}  // namespace runwarden

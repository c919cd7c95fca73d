// See unregistration_phase_actor.hpp.
#include "actors/unregistrar/unregistration_phase_actor.hpp"

#include <algorithm>

#include "messages/warden_messages.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

using phase_pointer =
    unregistration_phase_implementation::stateful_pointer<unregistration_phase_state>;

void start_unregistrar(phase_pointer self) {
  auto wiring = self->state.template_wiring;
  wiring.listener = unregistrar_listener_actor{self};
  wiring.random_seed += self->state.restarts;  // a restart does not replay the same jitter
  self->state.unregistrar = self->spawn(unregistrar_behavior, std::move(wiring));
  self->monitor(self->state.unregistrar);
}

unregistration_finished summary_of(const unregister_finished& finished) {
  const bool all_done = std::all_of(finished.runners.begin(), finished.runners.end(),
                                    [](const runner_unregister_status& status) {
                                      return status.state == unregister_state::done;
                                    });
  std::string detail;
  for (const auto& status : finished.runners) {
    if (!detail.empty()) detail += "; ";
    detail += status.runner + " " + std::string{to_string(status.how)};
  }
  return unregistration_finished{all_done, detail};
}

}  // namespace

unregistration_phase_implementation::behavior_type unregistration_phase_behavior(
    phase_pointer self, unregistrar_wiring wiring) {
  self->state.template_wiring = std::move(wiring);
  self->set_down_handler([=](const caf::down_msg& down) {
    auto& state = self->state;
    if (down.source != state.unregistrar.address() || state.finished) return;
    if (state.restarts >= unregistrar_restarts_max) {
      warden_logger()->error(
          "the unregistrar stopped ({}) after {} restarts; the "
          "unregistration step gives up and leaves it to its supervisor",
          self->system().render(down.reason), unregistrar_restarts_max);
      self->quit(caf::make_error(caf::sec::runtime_error, "unregistrar restarts exhausted"));
      return;
    }
    ++state.restarts;
    warden_logger()->error("the unregistrar stopped ({}); starting it again ({} of {})",
                           self->system().render(down.reason), state.restarts,
                           unregistrar_restarts_max);
    start_unregistrar(self);
  });
  return {
      [=](unregister_atom) {
        auto& state = self->state;
        // The one who asks is answered: the warden, or a test standing in for it.
        state.warden = caf::actor_cast<unregistration_listener_actor>(self->current_sender());
        if (state.finished) return;
        if (state.unregistrar) {
          // Asked again while under way (the drain deadline is near): each runner waiting to
          // retry tries now, not after the wait the unregistrar chose; one with a request
          // in flight is left to it.
          for (std::uint64_t index = 0; index < state.template_wiring.targets.size(); ++index)
            self->send(state.unregistrar, unregister_retry_atom::value, index);
          return;
        }
        start_unregistrar(self);
      },
      // The unregistrar logs each runner's progress itself.
      // Progress only informs the warden's status texts; the log already has each attempt.
      [=](const runner_unregister_status& status) {
        if (self->state.warden)
          self->send(self->state.warden,
                     unregistration_progress{status.attempts, status.next_attempt_in});
      },
      [=](const unregister_finished& finished) {
        auto& state = self->state;
        state.finished = true;
        if (state.warden) self->send(state.warden, summary_of(finished));
      },
  };
}

}  // namespace runwarden

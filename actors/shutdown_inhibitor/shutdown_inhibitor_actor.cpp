// See shutdown_inhibitor_actor.hpp.
#include "actors/shutdown_inhibitor/shutdown_inhibitor_actor.hpp"

#include <utility>

#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

using inhibitor_pointer = status_subscriber_actor::stateful_pointer<shutdown_inhibitor_state>;

void take(shutdown_inhibitor_state& state, const warden_snapshot& snapshot) {
  if (state.no_logind || state.taken) return;
  const auto failure = state.wiring.take();
  if (!failure) {
    state.taken = true;
    warden_logger()->debug("logind: holding a shutdown delay lock while {} jobs run",
                           snapshot.jobs_running.value_or(0));
    return;
  }
  if (failure->no_logind) {
    state.no_logind = true;
    warden_logger()->info("logind: {}; a shutdown of this machine will not wait for jobs",
                          failure->text);
    return;
  }
  // Tried again at the next change to busy.
  warden_logger()->warn("logind: cannot take a shutdown delay lock: {}", failure->text);
}

void release(shutdown_inhibitor_state& state) {
  if (!state.taken) return;
  state.wiring.release();
  state.taken = false;
  warden_logger()->debug("logind: shutdown delay lock released");
}

}  // namespace

status_subscriber_actor::behavior_type shutdown_inhibitor_behavior(
    inhibitor_pointer self, shutdown_inhibitor_wiring wiring) {
  self->state.wiring = std::move(wiring);
  self->send(self->state.wiring.warden, subscribe_atom::value, status_subscriber_actor{self});
  return {
      [=](const warden_snapshot& snapshot) {
        auto& state = self->state;
        const auto change = follow_snapshot(state.machine, snapshot);
        if (change == inhibitor_change::take) take(state, snapshot);
        if (change == inhibitor_change::release) release(state);
      },
      [=](refused_atom) {
        warden_logger()->error(
            "logind: the warden refused the status subscription; no shutdown delay lock "
            "is held");
      },
  };
}

}  // namespace runwarden

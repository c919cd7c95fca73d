// See service_manager_actor.hpp.
#include "actors/service_manager/service_manager_actor.hpp"

#include <algorithm>
#include <memory>

#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

using manager_pointer = service_manager_implementation::pointer;

struct service_manager_state {
  service_manager_wiring wiring;
  service_notice_state told;
  std::optional<warden_snapshot> last;
};

void tell(manager_pointer self, service_manager_state& state) {
  if (!state.last) return;
  const auto now = std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
  const auto wall_now = wall_time_of(state.last->now, now, state.wiring.wall_clock());
  auto lines = notices_for(state.told, state.wiring.facts, *state.last, wall_now);
  if (!lines.empty()) state.wiring.send(lines);
}

// How often the warden is asked for a fresh snapshot: often enough for the watchdog, and
// for the stop timeout's extension (service_notices.hpp) to be renewed before it runs out.
caf::timespan refresh_interval(const service_manager_wiring& wiring) {
  caf::timespan interval = std::chrono::duration_cast<caf::timespan>(drain_progress_grace) / 4;
  if (wiring.watchdog_interval)
    interval = std::min(interval, caf::timespan{*wiring.watchdog_interval / 2});
  return interval;
}

void schedule_refresh(manager_pointer self, const service_manager_state& state) {
  self->delayed_send(self, refresh_interval(state.wiring), refresh_atom::value);
}

}  // namespace

service_manager_implementation::behavior_type service_manager_behavior(
    manager_pointer self, service_manager_wiring wiring) {
  auto state = std::make_shared<service_manager_state>();
  state->wiring = std::move(wiring);
  self->send(state->wiring.warden, subscribe_atom::value, status_subscriber_actor{self});
  schedule_refresh(self, *state);
  return {
      [=](const warden_snapshot& snapshot) {
        state->last = snapshot;
        tell(self, *state);
      },
      [=](listening_atom) {
        state->told.control_listening = true;
        tell(self, *state);
      },
      [=](refresh_atom) {
        // The answer is due within the interval: a late one leaves systemd time to spare.
        self->request(state->wiring.warden, refresh_interval(state->wiring), caf::get_atom::value)
            .then(
                [=](const warden_snapshot& snapshot) {
                  if (state->wiring.watchdog_interval) state->wiring.send({"WATCHDOG=1"});
                  state->last = snapshot;
                  tell(self, *state);
                  schedule_refresh(self, *state);
                },
                [=](const caf::error&) { schedule_refresh(self, *state); });
      },
      // Past the warden's subscriber limit: the refresh still brings a snapshot every
      // interval, so systemd hears of changes late, never not at all.
      [](refused_atom) {},
  };
}

}  // namespace runwarden

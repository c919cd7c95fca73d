// See host_relay.hpp.
#include "src/embedding/host_relay.hpp"

#include <algorithm>
#include <string>

#include "messages/warden_messages.hpp"
#include "src/embedding/public_status.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

using relay_pointer = host_relay_actor::stateful_pointer<host_relay_state>;

bool is_gone(const embedded::status& status) {
  return status.state == embedded::instance_state::gone;
}

// The first status at gone is the last one a host hears: the warden may publish again after
// it (a late answer changes a field), and a host that hands the exit code to main at gone
// must hear it once.
void on_snapshot(relay_pointer self, const warden_snapshot& snapshot) {
  auto& state = self->state;
  if (state.last && is_gone(*state.last)) return;
  state.last = public_status(snapshot);
  if (is_gone(*state.last)) state.gone->store(true);
  // The host's actors are its own, untyped: a typed actor reaches them with anon_send only.
  for (const auto& listener : state.listeners) caf::anon_send(listener, *state.last);
  if (!is_gone(*state.last)) return;
  for (const auto& gone : state.callbacks) gone.callback(*state.last);
  state.callbacks.clear();
}

void on_subscribe(relay_pointer self, const caf::actor& listener) {
  auto& state = self->state;
  if (!listener || std::count(state.listeners.begin(), state.listeners.end(), listener)) return;
  if (state.listeners.size() >= host_listeners_max) {
    warden_logger()->error("embedded status subscription refused: {} already listen",
                           host_listeners_max);
    return;
  }
  state.listeners.push_back(listener);
  self->monitor(listener);
  if (state.last) caf::anon_send(listener, *state.last);
}

void on_gone_callback(relay_pointer self, const gone_callback& gone) {
  auto& state = self->state;
  if (!gone.callback) return;
  if (state.last && is_gone(*state.last)) {
    gone.callback(*state.last);
  } else if (state.callbacks.size() < host_listeners_max) {
    state.callbacks.push_back(gone);
  } else {
    warden_logger()->error("embedded shutdown callback dropped: {} already wait",
                           host_listeners_max);
  }
}

}  // namespace

host_relay_actor::behavior_type host_relay(relay_pointer self, std::function<void()> on_exit,
                                           std::shared_ptr<std::atomic<bool>> gone) {
  self->state.gone = std::move(gone);
  self->set_down_handler([=](const caf::down_msg& down) {
    std::erase_if(self->state.listeners,
                  [&](const caf::actor& listener) { return listener.address() == down.source; });
  });
  return {
      [=](const warden_snapshot& snapshot) { on_snapshot(self, snapshot); },
      [=](const warden_exited&) { on_exit(); },  // the snapshot at gone said the rest
      // Only runwarden run watches signals; the host keeps its own, so none comes here.
      [](const os_signal_received&) {},
      // Never: the warden keeps room for runwarden's own followers (internal_subscribers_max).
      [](refused_atom) {
        warden_logger()->error("embedded status: the warden refused the relay's subscription");
      },
      [=](caf::subscribe_atom, const caf::actor& listener) { on_subscribe(self, listener); },
      [=](const gone_callback& gone) { on_gone_callback(self, gone); },
  };
}

}  // namespace runwarden

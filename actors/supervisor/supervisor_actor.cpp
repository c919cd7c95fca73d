// See supervisor_actor.hpp. Events go to the machine through one local queue: a start that
// fails becomes a child_went_down event queued behind the effects in hand, so that a child
// that can never start loops at most as often as the restart intensity allows, never
// recursively.
#include "actors/supervisor/supervisor_actor.hpp"

#include <algorithm>
#include <exception>

#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

using supervisor_pointer = supervisor_implementation::stateful_pointer<supervisor_state>;

instant now_of(supervisor_pointer self) {
  return std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
}

// OTP's normal and shutdown; anything else, a kill included, is abnormal.
child_exit exit_of(const caf::error& reason) {
  const bool normal =
      !reason || reason == caf::exit_reason::normal || reason == caf::exit_reason::user_shutdown;
  return normal ? child_exit::normal : child_exit::abnormal;
}

const std::string& id_of(supervisor_pointer self, std::size_t child) {
  return self->state.children[child].spec.id;
}

child_incarnation incarnation_of(supervisor_pointer self, std::size_t child) {
  const auto& state = self->state;
  return {id_of(self, child), state.handles[child], state.incarnations[child]};
}

caf::actor call_factory(supervisor_pointer self, std::size_t child) {
  try {
    return self->state.children[child].start(self);
  } catch (const std::exception& failure) {
    warden_logger()->error("supervisor: starting {} failed: {}", id_of(self, child),
                           failure.what());
    return {};
  }
}

void start(supervisor_pointer self, std::size_t child, std::deque<supervision_event>& pending) {
  auto& state = self->state;
  RUNWARDEN_ASSERT(!state.handles[child]);
  auto handle = call_factory(self, child);
  if (!handle) {
    pending.push_back(child_went_down{child, child_exit::abnormal});
    return;
  }
  self->link_to(handle);
  self->monitor(handle);
  state.handles[child] = handle;
  ++state.incarnations[child];
  if (state.incarnations[child] > 1)
    warden_logger()->warn("supervisor: {} restarted (start {})", id_of(self, child),
                          state.incarnations[child]);
  for (const auto& listener : state.listeners) self->send(listener, incarnation_of(self, child));
}

void stop(supervisor_pointer self, const stop_child& effect) {
  const auto& handle = self->state.handles[effect.child];
  RUNWARDEN_ASSERT(handle);
  if (effect.shutdown_timeout == duration::zero()) {
    self->send_exit(handle, caf::exit_reason::kill);
    return;
  }
  const auto& stop_message = self->state.children[effect.child].stop_message;
  if (stop_message.empty())
    self->send_exit(handle, caf::exit_reason::user_shutdown);
  else
    caf::anon_send(handle, stop_message);  // a typed actor may send() to typed ones only
  self->delayed_send(self, effect.shutdown_timeout, kill_child_atom::value, handle.address());
}

void quit(supervisor_pointer self, const quit_supervisor& effect) {
  if (!effect.gave_up) {
    self->quit(self->state.stop_reason ? self->state.stop_reason
                                       : caf::error{caf::exit_reason::user_shutdown});
    return;
  }
  warden_logger()->error("supervisor gave up: {}", effect.reason);
  self->quit(caf::make_error(caf::sec::runtime_error, "supervisor gave up: " + effect.reason));
}

void feed(supervisor_pointer self, supervision_event first) {
  std::deque<supervision_event> pending{std::move(first)};
  while (!pending.empty()) {
    const auto event = std::move(pending.front());
    pending.pop_front();
    for (const auto& effect : self->state.machine->step(event, now_of(self))) {
      std::visit(
          [&](const auto& e) {
            using effect_type = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<effect_type, start_child>) start(self, e.child, pending);
            if constexpr (std::is_same_v<effect_type, stop_child>) stop(self, e);
            if constexpr (std::is_same_v<effect_type, quit_supervisor>) quit(self, e);
          },
          effect);
    }
  }
}

std::optional<std::size_t> current_child(supervisor_pointer self, const caf::actor_addr& who) {
  const auto& handles = self->state.handles;
  for (std::size_t child = 0; child < handles.size(); ++child)
    if (handles[child] && handles[child].address() == who) return child;
  return std::nullopt;
}

void on_down_message(supervisor_pointer self, const caf::down_msg& down) {
  auto& state = self->state;
  if (const auto child = current_child(self, down.source)) {
    state.handles[*child] = caf::actor{};
    state.former_children.push_back(down.source);
    if (state.former_children.size() > former_children_max) state.former_children.pop_front();
    const bool was_stopping = state.machine->status_of(*child) == child_status::stopping;
    if (!was_stopping && exit_of(down.reason) == child_exit::abnormal)
      warden_logger()->warn("supervisor: {} went down: {}", id_of(self, *child),
                            self->home_system().render(down.reason));
    else if (was_stopping && down.reason == caf::exit_reason::kill)
      warden_logger()->warn("supervisor: {} killed after its shutdown timeout",
                            id_of(self, *child));
    feed(self, child_went_down{*child, exit_of(down.reason)});
    return;
  }
  std::erase_if(state.listeners, [&](const auto& l) { return l.address() == down.source; });
}

// CAF never hands exit_reason::kill to this handler: that kills the supervisor at once, and
// the links take the children with it.
void on_exit_message(supervisor_pointer self, const caf::exit_msg& exit) {
  auto& state = self->state;
  if (current_child(self, exit.source)) return;  // its down_msg decides
  const auto former =
      std::find(state.former_children.begin(), state.former_children.end(), exit.source);
  if (former != state.former_children.end()) {
    state.former_children.erase(former);
    return;
  }
  if (!state.stop_reason) state.stop_reason = exit.reason;
  feed(self, supervisor_stop_requested{});
}

void subscribe(supervisor_pointer self, const child_listener_actor& listener) {
  auto& state = self->state;
  if (!listener ||
      std::find(state.listeners.begin(), state.listeners.end(), listener) != state.listeners.end())
    return;
  if (state.listeners.size() >= supervisor_listeners_max) {
    warden_logger()->error("supervisor: listener refused, {} already listen",
                           supervisor_listeners_max);
    return;
  }
  state.listeners.push_back(listener);
  self->monitor(listener);
  for (std::size_t child = 0; child < state.handles.size(); ++child)
    if (state.handles[child]) self->send(listener, incarnation_of(self, child));
}

caf::result<child_incarnation> lookup(supervisor_pointer self, const std::string& id) {
  const auto& children = self->state.children;
  for (std::size_t child = 0; child < children.size(); ++child)
    if (children[child].spec.id == id) return incarnation_of(self, child);
  return caf::make_error(caf::sec::runtime_error, "the supervisor has no child \"" + id + "\"");
}

}  // namespace

supervisor_implementation::behavior_type supervisor_behavior(supervisor_pointer self,
                                                             supervisor_wiring wiring) {
  auto& state = self->state;
  std::vector<child_spec> specs;
  for (const auto& child : wiring.children) {
    RUNWARDEN_ASSERT(child.start);
    specs.push_back(child.spec);
  }
  state.machine.emplace(wiring.flags, std::move(specs));
  state.children = std::move(wiring.children);
  state.handles.resize(state.children.size());
  state.incarnations.resize(state.children.size(), 0);
  self->set_down_handler([=](const caf::down_msg& down) { on_down_message(self, down); });
  self->set_exit_handler([=](const caf::exit_msg& exit) { on_exit_message(self, exit); });
  feed(self, supervisor_started{});
  return {
      [=](caf::get_atom, const std::string& id) { return lookup(self, id); },
      [=](caf::subscribe_atom, const child_listener_actor& listener) { subscribe(self, listener); },
      [=](caf::unsubscribe_atom, const child_listener_actor& listener) {
        std::erase(self->state.listeners, listener);
        self->demonitor(listener.address());
      },
      [=](kill_child_atom, const caf::actor_addr& child) {
        // Still the same incarnation, so still stopping: its shutdown timeout has passed.
        if (current_child(self, child)) self->send_exit(child, caf::exit_reason::kill);
      },
  };
}

}  // namespace runwarden

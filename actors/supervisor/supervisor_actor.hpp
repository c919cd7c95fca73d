#pragma once
// The supervisor of runwarden's own actors: Erlang/OTP semantics (supervision_machine.hpp
// decides) on CAF 0.17. It starts each child from a factory, then links to it (so that the
// child dies with the supervisor) and monitors it: in CAF 0.17 an actor that receives an
// exit_msg unlinks from its sender first, so a child it stops never sends one back, and the
// down_msg is the only reliable word that a child is gone. Exit
// messages from children are trapped and ignored; one from anybody else is a request to
// stop. A child is stopped with exit_reason::user_shutdown, or with its own stop message if
// it must flush first, and killed when its shutdown timeout passes (a delayed message to
// itself, ignored when the child went down in time). See supervisor_messages.hpp for what
// others may ask.
//
// Adding a child: give it a supervised_child with a unique id, its restart type and
// shutdown timeout, and a factory that spawns it (plainly: the supervisor links and
// monitors) and returns its handle. A factory that throws or returns an invalid handle
// counts as a child that went down abnormally at once.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "caf/all.hpp"
#include "messages/supervisor_messages.hpp"
#include "src/supervision/supervision_machine.hpp"

namespace runwarden {

// Children of different interfaces live side by side under one supervisor, which only starts,
// links, monitors and stops them and never sends them their protocol: so it holds them as
// caf::actor. A factory spawns its child typed and returns caf::actor_cast<caf::actor> of it,
// the one place a typed handle becomes untyped; handle_of (supervisor_messages.hpp) types it
// again for whoever asks for the child by its id.
using child_factory = std::function<caf::actor(caf::local_actor* supervisor)>;

struct supervised_child {
  child_spec spec;
  child_factory start;
  // Empty: stop with exit_reason::user_shutdown. Otherwise sent instead; the child must then
  // quit by itself within its shutdown timeout.
  caf::message stop_message = {};
};

struct supervisor_wiring {
  supervisor_flags flags;
  std::vector<supervised_child> children;  // in start order; must pass check_supervisor_spec
};

// Exit messages of a child may arrive after its down_msg; the addresses of the last few
// children that went down are kept so that such a late one is not taken for a stop request.
inline constexpr std::size_t former_children_max = 64;
inline constexpr std::size_t supervisor_listeners_max = 16;

struct supervisor_state {
  static inline const char* name = "supervisor";
  std::optional<supervision_machine> machine;
  std::vector<supervised_child> children;
  std::vector<caf::actor> handles;              // the current incarnations; invalid when down
  std::vector<std::uint64_t> incarnations;      // per child, the number of its latest start
  std::deque<caf::actor_addr> former_children;  // at most former_children_max
  std::vector<child_listener_actor> listeners;  // at most supervisor_listeners_max
  caf::error stop_reason;                       // the reason a stop request came with
};

// The supervisor as it runs: besides its peers' interface, (kill_child_atom, child), which it
// sends itself when a child's shutdown timeout ends.
using supervisor_implementation =
    supervisor_actor::extend<caf::reacts_to<kill_child_atom, caf::actor_addr>>;

supervisor_implementation::behavior_type supervisor_behavior(
    supervisor_implementation::stateful_pointer<supervisor_state> self, supervisor_wiring wiring);

}  // namespace runwarden

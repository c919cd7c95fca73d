#pragma once
// The vocabulary and typed interface of the supervisor of runwarden's own actors
// (actors/supervisor). Nobody should keep a child's handle across a restart: either ask for
// the current one, or listen and be told each new one (and re-send what the old one may have
// lost).
//
// When the restart intensity is exceeded the supervisor stops every child and quits with
// sec::runtime_error and a context naming the child, so that whoever monitors it (the
// process's main, a parent supervisor) fails in turn.

#include <cstdint>
#include <string>

#include "caf/all.hpp"

namespace runwarden {

using kill_child_atom = caf::atom_constant<caf::atom("killchild")>;

// One life of a child, from its start until it goes down.
struct child_incarnation {
  std::string id;
  caf::actor handle;         // invalid while the child is not running (between incarnations)
  std::uint64_t number = 0;  // 1 for the first start, one more at every restart
};

// The supervisor keeps children of every interface alike, as caf::actor: the one boundary
// where typed handles are made untyped (actors/supervisor/supervisor_actor.hpp says why).
// Whoever asks for a child by its id knows the child's interface and takes it back here.
template <class Interface>
Interface handle_of(const child_incarnation& child) {
  return caf::actor_cast<Interface>(child.handle);
}

// Whoever follows a supervisor's children: one child_incarnation per start.
using child_listener_actor = caf::typed_actor<caf::reacts_to<child_incarnation>>;

// What a supervisor's peers may send it:
//   (caf::get_atom, std::string id)          -> child_incarnation, the current one; an error
//                                              naming the id when there is no such child
//   (caf::subscribe_atom, listener)          the listener receives a child_incarnation for
//                                              every running child now, and one more at every
//                                              start afterwards, until it goes down or
//   (caf::unsubscribe_atom, listener)        unsubscribes
//   exit (send_exit / anon_send_exit) with any reason but kill
//                                            stops every child in reverse start order, then
//                                              quits with that reason
using supervisor_actor =
    caf::typed_actor<caf::replies_to<caf::get_atom, std::string>::with<child_incarnation>,
                     caf::reacts_to<caf::subscribe_atom, child_listener_actor>,
                     caf::reacts_to<caf::unsubscribe_atom, child_listener_actor>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::child_incarnation)

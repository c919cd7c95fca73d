#pragma once
// The vocabulary of the supervisor of runwarden's own actors (actors/supervisor). Nobody
// should keep a child's handle across a restart: either ask for the current one, or listen
// and be told each new one (and re-send what the old one may have lost).
//
//   (caf::get_atom, std::string id)          -> child_incarnation, the current one; an error
//                                              naming the id when there is no such child
//   (caf::subscribe_atom, caf::actor)        the listener receives a child_incarnation for
//                                              every running child now, and one more at every
//                                              start afterwards, until it goes down or
//   (caf::unsubscribe_atom, caf::actor)      unsubscribes
//   exit (send_exit / anon_send_exit) with any reason but kill
//                                            stops every child in reverse start order, then
//                                              quits with that reason
//
// When the restart intensity is exceeded the supervisor stops every child and quits with
// sec::runtime_error and a context naming the child, so that whoever monitors it (the
// process's main, a parent supervisor) fails in turn.
//
// Internally the supervisor sends itself (kill_child_atom, caf::actor_addr) when a child's
// shutdown timeout ends.

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

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::child_incarnation)

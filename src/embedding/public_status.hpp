#pragma once
// The public view (include/runwarden/status.hpp) of the warden's snapshot: each internal
// word mapped by one switch, which the compiler checks covers every value (-Wswitch), so a
// word added inside runwarden cannot reach a host unmapped.

#include "runwarden/status.hpp"
#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

embedded::status public_status(const warden_snapshot& snapshot);

}  // namespace runwarden

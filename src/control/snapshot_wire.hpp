#pragma once
// The warden's snapshot as the control API sends it: runwarden.v1.StatusResponse (the
// wrapper's words are in wrapper_status_text.hpp). This is the edge where the actor clock's
// instants become wall-clock timestamps: given wall_now, the wall-clock time of snapshot.now, an
// instant t is shown as wall_now - (snapshot.now - t). (wall_clock_anchor gives wall_now.)

#include <chrono>

#include "runwarden/v1/warden.pb.h"
#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

v1::StatusResponse status_response_of(const warden_snapshot& snapshot,
                                      std::chrono::system_clock::time_point wall_now);

}  // namespace runwarden

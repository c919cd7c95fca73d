#pragma once
// The whole runwarden.v1 Shutdown request turned into the drain machine's event, or refused
// with the first problem found (shutdown_request_check.hpp holds the per-field rules). Pure,
// apart from the protobuf message it reads, so that the fuzz target (fuzz/) and the gRPC
// service run exactly the same check.

#include <optional>
#include <string>

#include "runwarden/v1/warden.pb.h"
#include "src/drain/drain_machine.hpp"

namespace runwarden {

struct checked_shutdown {
  std::optional<shutdown_requested> event;  // set exactly when error is empty
  std::string error;
};

// `now` is the drain machine's clock, which a relative deadline is added to;
// `allow_link_local` lets a callback reach link-local targets (callback_problem).
checked_shutdown check_shutdown_request(const v1::ShutdownRequest& request, instant now,
                                        bool allow_link_local = false);

}  // namespace runwarden

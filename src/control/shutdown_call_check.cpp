// See shutdown_call_check.hpp.
#include "src/control/shutdown_call_check.hpp"

#include "src/control/shutdown_request_check.hpp"

namespace runwarden {

checked_shutdown check_shutdown_request(const v1::ShutdownRequest& request, instant now,
                                        bool allow_link_local) {
  if (auto problem = reason_problem(request.reason())) return {std::nullopt, *problem};
  shutdown_requested event{.source = trigger_source::control_api, .reason = request.reason()};
  if (request.has_callback()) {
    event.callback = callback_from_wire(request.callback());
    if (event.callback) {
      if (auto problem = callback_problem(*event.callback, allow_link_local))
        return {std::nullopt, *problem};
    }
  }
  if (request.has_deadline()) {
    const auto deadline = deadline_from_wire(request.deadline());
    if (!deadline.relative) return {std::nullopt, deadline.error};
    event.deadline = now + *deadline.relative;
  }
  return {std::move(event), {}};
}

}  // namespace runwarden

// See lifecycle_trigger_request.hpp.
#include "src/aws/imds/lifecycle_trigger_request.hpp"

namespace runwarden {

shutdown_requested as_shutdown_request(const lifecycle_trigger& trigger, instant now,
                                       std::chrono::system_clock::time_point wall_now) {
  shutdown_requested request{.source = trigger.source, .reason = trigger.reason};
  if (trigger.deadline)
    request.deadline = now + std::chrono::duration_cast<instant>(*trigger.deadline - wall_now);
  return request;
}

}  // namespace runwarden

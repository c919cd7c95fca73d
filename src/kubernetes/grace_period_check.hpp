#pragma once
// Kubernetes kills a pod terminationGracePeriodSeconds after its SIGTERM, whatever runwarden's
// drain is doing; a grace period shorter than the drain timeout kills jobs the drain would
// have let finish. Read from the pod's own object (GET) at start, and said as a warning.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

struct grace_period_finding {
  std::optional<std::chrono::seconds> grace_period;  // empty when the body was unusable
  std::string warning;                               // empty: nothing to warn about
};

// `pod_json` is the pod as GET returns it; the grace period defaults to 30 s, as the API's
// own default. `drain_timeout` empty means a drain without deadline.
grace_period_finding check_grace_period(std::string_view pod_json,
                                        std::optional<std::chrono::milliseconds> drain_timeout);

}  // namespace runwarden

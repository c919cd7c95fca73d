// See grace_period_check.hpp.
#include "src/kubernetes/grace_period_check.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace runwarden {

namespace {

constexpr std::chrono::seconds api_default_grace_period{30};

}  // namespace

grace_period_finding check_grace_period(std::string_view pod_json,
                                        std::optional<std::chrono::milliseconds> drain_timeout) {
  const auto pod = nlohmann::json::parse(pod_json, nullptr, false);
  if (pod.is_discarded() || !pod.is_object())
    return {std::nullopt, "kubernetes: the pod's object is not JSON; its grace period is unknown"};
  std::chrono::seconds grace = api_default_grace_period;
  const auto spec = pod.find("spec");
  if (spec != pod.end() && spec->is_object()) {
    const auto field = spec->find("terminationGracePeriodSeconds");
    if (field != spec->end() && field->is_number_integer())
      grace = std::chrono::seconds{field->get<std::int64_t>()};
  }
  if (!drain_timeout)
    return {grace, fmt::format("kubernetes: the pod is killed {} s after SIGTERM "
                               "(terminationGracePeriodSeconds), but the drain has no timeout: "
                               "jobs running then are killed; set drain.timeout below it",
                               grace.count())};
  if (std::chrono::milliseconds{grace} < *drain_timeout)
    return {grace,
            fmt::format("kubernetes: terminationGracePeriodSeconds ({} s) is shorter than "
                        "drain.timeout ({} s): Kubernetes kills the pod before the drain "
                        "ends; raise the grace period above the drain timeout",
                        grace.count(),
                        std::chrono::duration_cast<std::chrono::seconds>(*drain_timeout).count())};
  return {grace, {}};
}

}  // namespace runwarden

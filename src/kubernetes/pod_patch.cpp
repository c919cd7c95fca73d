// See pod_patch.hpp. nlohmann::json keeps object keys sorted, which makes the body the same
// byte for byte for the same role (tests compare it).
#include "src/kubernetes/pod_patch.hpp"

#include <nlohmann/json.hpp>

#include "src/util/assert.hpp"

namespace runwarden {

std::string_view to_string(pod_role role) {
  switch (role) {
    case pod_role::busy:
      return "busy";
    case pod_role::idle:
      return "idle";
    case pod_role::released:
      return "released";
  }
  RUNWARDEN_ASSERT(false);
  return "";
}

std::string pod_patch_body(pod_role role, std::int32_t idle_deletion_cost) {
  nlohmann::json annotations = nlohmann::json::object();
  const std::string do_not_disrupt{do_not_disrupt_annotation};
  const std::string safe_to_evict{safe_to_evict_annotation};
  const std::string deletion_cost{deletion_cost_annotation};
  annotations[do_not_disrupt] = nullptr;
  annotations[safe_to_evict] = nullptr;
  annotations[deletion_cost] = nullptr;
  if (role == pod_role::busy) {
    annotations[do_not_disrupt] = "true";
    annotations[safe_to_evict] = "false";
  } else if (role == pod_role::idle) {
    annotations[deletion_cost] = std::to_string(idle_deletion_cost);
  }
  nlohmann::json body = {{"metadata", {{"annotations", std::move(annotations)}}}};
  return body.dump();
}

std::string pod_path(std::string_view pod_namespace, std::string_view pod_name) {
  RUNWARDEN_ASSERT(!pod_namespace.empty() && !pod_name.empty());
  return "/api/v1/namespaces/" + std::string{pod_namespace} + "/pods/" + std::string{pod_name};
}

}  // namespace runwarden

#pragma once
// What runwarden says about its own pod, as JSON merge patches (RFC 7386) of the pod's
// annotations. A pod running jobs asks not to be disrupted, by Karpenter
// (karpenter.sh/do-not-disrupt) and by the cluster autoscaler
// (cluster-autoscaler.kubernetes.io/safe-to-evict); an idle pod drops both and carries a low
// controller.kubernetes.io/pod-deletion-cost, so that a ReplicaSet scaling down removes idle
// pods first; a pod that drains drops everything runwarden set. In a merge patch null deletes
// a key, so each body names all three annotations and the pod ends up with exactly the
// role's set whatever it carried before.

#include <cstdint>
#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::string_view do_not_disrupt_annotation = "karpenter.sh/do-not-disrupt";
inline constexpr std::string_view safe_to_evict_annotation =
    "cluster-autoscaler.kubernetes.io/safe-to-evict";
inline constexpr std::string_view deletion_cost_annotation =
    "controller.kubernetes.io/pod-deletion-cost";
inline constexpr std::string_view merge_patch_content_type = "application/merge-patch+json";

// What the pod is, as its annotations say it.
enum class pod_role : std::uint8_t {
  busy,      // jobs running: do not disrupt, not safe to evict
  idle,      // no job: disruptable, deleted first on scale-down
  released,  // draining: nothing of runwarden's left on the pod
};

std::string_view to_string(pod_role role);

// The merge patch's body, compact JSON with its keys sorted. `idle_deletion_cost` is the
// pod-deletion-cost of an idle pod (an int32 written as a string, as Kubernetes wants it).
std::string pod_patch_body(pod_role role, std::int32_t idle_deletion_cost);

// PATCH /api/v1/namespaces/{namespace}/pods/{name} (or GET, for the same path).
std::string pod_path(std::string_view pod_namespace, std::string_view pod_name);

}  // namespace runwarden

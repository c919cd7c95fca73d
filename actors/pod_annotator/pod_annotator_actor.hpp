#pragma once
// The pod annotator: inside Kubernetes, tells the cluster through its own pod's annotations
// whether the runner is busy. Thin: it turns the warden's snapshots into events
// for the pod annotation machine (src/kubernetes/pod_annotation_machine.hpp) and sends the
// merge patches it decides through an HTTP port. At start it reads its pod once (GET) and
// warns when the pod's grace period is shorter than the drain timeout.
//
// Why the warden's snapshots: they carry the job count the metrics poller reported and, in
// the same message, whether a drain has begun, as for the scaler's scale-in protection; the
// pod says what status shows. The service account token is read again before each request,
// since the kubelet rotates the projected token; it never goes into a log.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/kubernetes/in_cluster_address.hpp"
#include "src/kubernetes/pod_annotation_machine.hpp"

namespace runwarden {

struct pod_annotator_wiring {
  in_cluster_address address;
  pod_annotation_policy policy;
  std::optional<std::chrono::milliseconds> drain_timeout;  // for the grace period check
  std::chrono::milliseconds request_timeout{std::chrono::seconds{10}};
  http_port_actor http_port;
  status_source_actor warden;  // subscribed to for warden_snapshot
  // The token file's content, read at each call; empty when it cannot be read.
  std::function<std::optional<std::string>(const std::string& path)> read_token;
  std::function<void(pod_patch_outcome)> patch_observer = {};  // may be empty (/metrics)
};

struct pod_annotator_state {
  static inline const char* name = "pod_annotator";
  pod_annotator_wiring wiring;
  pod_annotation_state machine;
  std::uint64_t next_request_id = 1;
  std::optional<std::uint64_t> patch_request;  // the patch in flight
  std::optional<std::uint64_t> pod_request;    // the start's GET
  std::optional<instant> wake_armed_for;
};

// The annotator as it runs: the warden's status, its HTTP port's answers, and
// (pod_patch_wake_atom) when a retry is due.
using pod_patch_wake_atom = caf::atom_constant<caf::atom("podwake")>;
using pod_annotator_implementation =
    status_subscriber_actor::extend<caf::reacts_to<http_response>,
                                    caf::reacts_to<pod_patch_wake_atom>>;

pod_annotator_implementation::behavior_type pod_annotator_behavior(
    pod_annotator_implementation::stateful_pointer<pod_annotator_state> self,
    pod_annotator_wiring wiring);

}  // namespace runwarden

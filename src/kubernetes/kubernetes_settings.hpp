#pragma once
// The [kubernetes] table: runwarden as its own pod's entrypoint, telling the cluster when the
// pod is busy. Off by default; outside Kubernetes nothing of it is opened.
// config/runwarden.toml documents each key.

#include <cstdint>
#include <string>

#include "src/kubernetes/pod_annotation_machine.hpp"

namespace runwarden {

inline constexpr std::string_view service_account_directory_default =
    "/var/run/secrets/kubernetes.io/serviceaccount";

struct kubernetes_settings {
  bool enabled = false;
  // Empty: the downward API's POD_NAME environment variable.
  std::string pod_name;
  // Empty: the service account's namespace file.
  std::string pod_namespace;
  // Where the projected service account token, ca.crt and namespace are.
  std::string service_account_directory{service_account_directory_default};
  // Empty: https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT.
  std::string api_url;
  pod_annotation_policy policy;
};

}  // namespace runwarden

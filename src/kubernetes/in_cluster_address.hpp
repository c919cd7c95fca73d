#pragma once
// Where runwarden's own pod is, as a process inside the cluster finds it (client-go's
// rest.InClusterConfig does the same): the API server from KUBERNETES_SERVICE_HOST and
// KUBERNETES_SERVICE_PORT, the token and CA from the service account directory, the
// namespace from its namespace file, the pod's name from the downward API (POD_NAME). Pure:
// the namespace file's text is handed in; the token is only named here, since the kubelet
// rotates it and it is read again before each request.

#include <optional>
#include <string>

#include "src/kubernetes/kubernetes_settings.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

struct in_cluster_address {
  std::string api_url;  // https://host:port, no trailing slash
  std::string pod_namespace;
  std::string pod_name;
  std::string token_file;
  std::string ca_file;
};

struct in_cluster_lookup {
  std::optional<in_cluster_address> address;  // set exactly when error is empty
  std::string error;
};

// `namespace_file_text` is the namespace file's content, when it could be read.
in_cluster_lookup find_in_cluster(const kubernetes_settings& settings,
                                  const environment_map& environment,
                                  const std::optional<std::string>& namespace_file_text);

// A Kubernetes object name as pod and namespace names are (RFC 1123 subdomain): lower-case
// letters, digits, '-' and '.', at most 253 characters, alphanumeric at both ends.
bool is_object_name(std::string_view name);

}  // namespace runwarden

#pragma once
// The [kubernetes] table: one reader per key, bound to its row in
// config_schema.cpp. Names are checked where they are resolved
// (src/kubernetes/in_cluster_address), since the pod's name usually comes from the
// environment, not from here.

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_kubernetes_enabled(config_value& value);
bool read_kubernetes_pod_name(config_value& value);
bool read_kubernetes_namespace(config_value& value);
bool read_kubernetes_service_account_directory(config_value& value);
bool read_kubernetes_api_url(config_value& value);
bool read_kubernetes_idle_deletion_cost(config_value& value);
bool read_kubernetes_idle_hold_off(config_value& value);
bool read_kubernetes_patch_attempts(config_value& value);
bool read_kubernetes_retry_initial(config_value& value);
bool read_kubernetes_retry_max(config_value& value);

}  // namespace runwarden

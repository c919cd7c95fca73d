#pragma once
// Where the Google Compute Engine metadata server answers. The config file's
// gcp.metadata_endpoint wins, since it is runwarden's own setting; then GCE_METADATA_HOST, the
// variable Google's own client libraries read (a host and optional port, no scheme: they put
// "http://" before it); then the link-local address the server answers on inside every VM
// (metadata.google.internal resolves to it, without needing a name lookup).

#include <optional>
#include <string>

#include "src/util/process_environment.hpp"

namespace runwarden {

inline constexpr const char* gcp_metadata_default_endpoint = "http://169.254.169.254";
inline constexpr const char* gcp_metadata_host_variable = "GCE_METADATA_HOST";

struct gcp_metadata_endpoint_result {
  std::string endpoint;  // scheme and authority, no trailing slash; set when error is empty
  std::string error;     // names where the bad value came from
};

gcp_metadata_endpoint_result resolve_gcp_metadata_endpoint(
    const std::optional<std::string>& configured, const environment_map& environment);

}  // namespace runwarden

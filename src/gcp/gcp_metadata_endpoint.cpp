// See gcp_metadata_endpoint.hpp. The form is checked as the EC2 endpoint's is (a scheme, a
// host, an optional port, nothing else), since both are joined with absolute paths.
#include "src/gcp/gcp_metadata_endpoint.hpp"

#include "src/aws/imds/imds_endpoint.hpp"

namespace runwarden {

gcp_metadata_endpoint_result resolve_gcp_metadata_endpoint(
    const std::optional<std::string>& configured, const environment_map& environment) {
  std::string endpoint = gcp_metadata_default_endpoint;
  std::string origin;
  if (configured) {
    endpoint = *configured;
    origin = "gcp.metadata_endpoint";
  } else if (const auto it = environment.find(gcp_metadata_host_variable);
             it != environment.end() && !it->second.empty()) {
    endpoint = "http://" + it->second;
    origin = gcp_metadata_host_variable;
    if (const auto problem = imds_endpoint_problem(endpoint))
      return {{},
              origin + " \"" + it->second +
                  "\" must be a host and an optional port, "
                  "such as \"169.254.169.254\" or \"127.0.0.1:8080\""};
  }
  if (const auto problem = imds_endpoint_problem(endpoint))
    return {{}, origin + " \"" + endpoint + "\" " + *problem};
  if (endpoint.ends_with('/')) endpoint.pop_back();
  return {endpoint, {}};
}

}  // namespace runwarden

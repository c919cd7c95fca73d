// See azure_metadata_endpoint.hpp.
#include "src/azure/azure_metadata_endpoint.hpp"

#include "src/aws/imds/imds_endpoint.hpp"

namespace runwarden {

azure_endpoint_result resolve_azure_metadata_endpoint(
    const std::optional<std::string>& configured) {
  std::string endpoint = configured.value_or(azure_metadata_default_endpoint);
  if (const auto problem = imds_endpoint_problem(endpoint))
    return {{}, "azure.metadata_endpoint \"" + endpoint + "\" " + *problem};
  if (endpoint.ends_with('/')) endpoint.pop_back();
  return {endpoint, {}};
}

}  // namespace runwarden

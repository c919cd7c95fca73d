#pragma once
// Where Azure's Instance Metadata Service answers: azure.metadata_endpoint, else the
// link-local address it answers on inside every VM. Azure's own tools read no variable for
// it. The form is checked as the EC2 endpoint's is (a scheme, a host, an optional port).

#include <optional>
#include <string>

namespace runwarden {

inline constexpr const char* azure_metadata_default_endpoint = "http://169.254.169.254";

struct azure_endpoint_result {
  std::string endpoint;  // scheme and authority, no trailing slash; set when error is empty
  std::string error;
};

azure_endpoint_result resolve_azure_metadata_endpoint(const std::optional<std::string>& configured);

}  // namespace runwarden

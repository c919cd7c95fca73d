#pragma once
// Where the instance metadata service answers. The config file's aws.imds_endpoint wins,
// since it is runwarden's own setting; then AWS_EC2_METADATA_SERVICE_ENDPOINT, the variable
// every AWS SDK reads; then the link-local address EC2 serves on. The environment comes in
// as a map so that tests and the simulation choose it.

#include <map>
#include <optional>
#include <string>

#include "src/util/process_environment.hpp"

namespace runwarden {

inline constexpr const char* imds_default_endpoint = "http://169.254.169.254";
inline constexpr const char* imds_endpoint_variable = "AWS_EC2_METADATA_SERVICE_ENDPOINT";

struct imds_endpoint_result {
  std::string endpoint;  // scheme and authority, no trailing slash; set when error is empty
  std::string error;     // names where the bad value came from
};

// An endpoint is http:// or https:// with a host and nothing past an optional "/".
imds_endpoint_result resolve_imds_endpoint(const std::optional<std::string>& configured,
                                           const environment_map& environment);

// Only the form; shared with the config reader so both word a refusal the same way.
std::optional<std::string> imds_endpoint_problem(const std::string& endpoint);

}  // namespace runwarden

// See imds_endpoint.hpp. The endpoint is joined with absolute paths ("/latest/..."), so a
// path in it would silently move every request; it is refused instead.
#include "src/aws/imds/imds_endpoint.hpp"

#include <algorithm>
#include <string_view>

namespace runwarden {

std::optional<std::string> imds_endpoint_problem(const std::string& endpoint) {
  std::string_view rest{endpoint};
  if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else if (rest.starts_with("https://")) {
    rest.remove_prefix(8);
  } else {
    return "must start with http:// or https://";
  }
  if (rest.ends_with('/')) rest.remove_suffix(1);
  const bool bad_character = std::any_of(rest.begin(), rest.end(), [](char character) {
    const auto byte = static_cast<unsigned char>(character);
    return byte <= ' ' || byte == 0x7f || character == '/' || character == '?' ||
           character == '#' || character == '@';
  });
  if (rest.empty() || rest.starts_with(':')) return "has no host";
  if (bad_character)
    return "must be only a scheme, a host and an optional port, such as "
           "\"http://169.254.169.254\" or \"http://[fd00:ec2::254]\"";
  return std::nullopt;
}

imds_endpoint_result resolve_imds_endpoint(const std::optional<std::string>& configured,
                                           const environment_map& environment) {
  std::string endpoint = imds_default_endpoint;
  std::string origin;
  if (configured) {
    endpoint = *configured;
    origin = "aws.imds_endpoint";
  } else if (const auto it = environment.find(imds_endpoint_variable);
             it != environment.end() && !it->second.empty()) {
    endpoint = it->second;
    origin = imds_endpoint_variable;
  }
  if (const auto problem = imds_endpoint_problem(endpoint))
    return {{}, origin + " \"" + endpoint + "\" " + *problem};
  if (endpoint.ends_with('/')) endpoint.pop_back();
  return {endpoint, {}};
}

}  // namespace runwarden

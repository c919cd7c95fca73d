#pragma once
// The body of an AWS Query protocol call: application/x-www-form-urlencoded parameters in
// the order given, encoded as botocore encodes them (unreserved characters kept, a space as
// '+', every other byte %XY), so our requests are byte for byte what the AWS CLI sends.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runwarden {

using form_parameter_list = std::vector<std::pair<std::string, std::string>>;

inline constexpr std::string_view form_content_type =
    "application/x-www-form-urlencoded; charset=utf-8";

std::string form_encode(const form_parameter_list& parameters);

// The inverse, with libcurl's unescaping ('+' is a space): for the simulated Auto Scaling
// endpoint, which reads what the client sends. A pair without '=' has an empty value.
form_parameter_list form_decode(std::string_view body);

}  // namespace runwarden

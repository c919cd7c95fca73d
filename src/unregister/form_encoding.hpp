#pragma once
// Percent-encoding for the few values runwarden puts into URLs and form bodies (a runner's
// token and system id, a runner name in a query, an owner in a path): every byte but RFC
// 3986's unreserved ones is encoded, which is right in a path segment, a query and an
// application/x-www-form-urlencoded body alike.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runwarden {

std::string percent_encode(std::string_view text);

// "a=1&b=2", each name and value percent-encoded.
std::string form_encode(const std::vector<std::pair<std::string, std::string>>& fields);

}  // namespace runwarden

// See canonical_query.hpp.
#include "src/aws/canonical_query.hpp"

#include <algorithm>

#include "src/util/uri_encoding.hpp"

namespace runwarden {

std::string canonical_query_string(const query_parameter_list& parameters) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(parameters.size());
  for (const auto& [name, value] : parameters)
    encoded.emplace_back(uri_encode(name, slash_encoding::encode),
                         uri_encode(value, slash_encoding::encode));
  // Encoded text is ASCII, so comparing the strings compares bytes as SigV4 sorts them.
  std::sort(encoded.begin(), encoded.end());
  std::string canonical;
  for (const auto& [name, value] : encoded) {
    if (!canonical.empty()) canonical.push_back('&');
    canonical.append(name).append("=").append(value);
  }
  return canonical;
}

query_parameter_list parse_query_string(std::string_view query) {
  query_parameter_list parameters;
  std::size_t start = 0;
  while (start < query.size()) {
    const auto end = std::min(query.find('&', start), query.size());
    const auto pair = query.substr(start, end - start);
    const auto equals = pair.find('=');
    if (equals == std::string_view::npos)
      parameters.emplace_back(percent_decode(pair), std::string{});
    else
      parameters.emplace_back(percent_decode(pair.substr(0, equals)),
                              percent_decode(pair.substr(equals + 1)));
    start = end + 1;
  }
  return parameters;
}

}  // namespace runwarden

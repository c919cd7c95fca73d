// See canonical_uri.hpp.
#include "src/aws/canonical_uri.hpp"

#include <algorithm>
#include <vector>

#include "src/util/uri_encoding.hpp"

namespace runwarden {

std::string normalized_path(std::string_view path) {
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto end = std::min(path.find('/', start), path.size());
    const auto segment = path.substr(start, end - start);
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
    } else if (!segment.empty() && segment != ".") {
      segments.push_back(segment);
    }
    start = end + 1;
  }
  std::string normalized = "/";
  for (std::size_t index = 0; index < segments.size(); ++index) {
    if (index > 0) normalized.push_back('/');
    normalized.append(segments[index]);
  }
  if (!segments.empty() && path.ends_with('/')) normalized.push_back('/');
  return normalized;
}

std::string canonical_uri(std::string_view path) {
  return uri_encode(normalized_path(path), slash_encoding::keep);
}

}  // namespace runwarden

#pragma once
// The canonical headers of a SigV4 request and the signed-headers list that goes with them.
// Names are lower-cased and sorted; each value is trimmed and its runs of whitespace (line
// folds included) collapsed to one space; repeated names become one line whose values are
// joined with ',' in the order they were sent, since that order is meaningful in HTTP.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runwarden {

// (name, value) pairs as sent; the same type as http_header_list in messages/.
using header_list = std::vector<std::pair<std::string, std::string>>;

struct canonical_header_block {
  std::string canonical;       // "name:value\n" per distinct name, sorted
  std::string signed_headers;  // "host;x-amz-date"
};

canonical_header_block canonicalize_headers(const header_list& headers);

// Trimmed, inner whitespace runs collapsed to one space.
std::string trimmed_header_value(std::string_view value);

}  // namespace runwarden

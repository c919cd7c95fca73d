#pragma once
// The canonical query string of a SigV4 request: each name and value percent-encoded (they
// come in decoded), the pairs sorted by encoded name and then by encoded value, so duplicate
// names are kept and ordered too, joined as "name=value&...". An empty value still gets its
// '='. The same text is a correct query string to send, so callers can put it on the wire.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runwarden {

// Decoded (name, value) pairs in the order the caller has them.
using query_parameter_list = std::vector<std::pair<std::string, std::string>>;

std::string canonical_query_string(const query_parameter_list& parameters);

// Splits an encoded query string ("a=1&b=&c") into decoded pairs; "c" reads as ("c", "").
query_parameter_list parse_query_string(std::string_view query);

}  // namespace runwarden

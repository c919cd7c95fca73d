#pragma once
// Percent-encoding as SigV4 defines it: every byte except the unreserved characters
// A-Z a-z 0-9 - _ . ~ becomes %XY with uppercase hex, UTF-8 bytes one by one. Paths keep
// their '/' separators; query names and values encode them. Also the inverse, for reading a
// query string that arrives already encoded.

#include <string>
#include <string_view>

namespace runwarden {

enum class slash_encoding { keep, encode };

std::string uri_encode(std::string_view text, slash_encoding slashes);

// Decodes %XY sequences; a '%' not followed by two hex digits stays as it is, which is how
// servers read such text too. '+' stays a '+': in a URI query it is not a space.
std::string percent_decode(std::string_view text);

}  // namespace runwarden

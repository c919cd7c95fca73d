#pragma once
// Label values must be valid UTF-8 (as the format's reference parser demands): no stray
// continuation bytes, no overlong forms, no surrogates, nothing above U+10FFFF.

#include <string_view>

namespace runwarden {

bool is_valid_utf8(std::string_view text);

}  // namespace runwarden

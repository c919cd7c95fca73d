#pragma once
// Page content quoted for an error message: between double quotes, with '"', '\' and control
// or non-ASCII bytes escaped ("\n", "\xbd"), so a message stays one printable line whatever
// the page held, and cut at a fixed length so a huge token cannot flood a log.

#include <cstddef>
#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::size_t quoted_text_bytes_max = 64;

std::string quoted(std::string_view text);

}  // namespace runwarden

#pragma once
// A value from a remote service (a metadata page, a cloud notice), fit to quote in a log
// line: in double quotes, printable ASCII only (anything else shown as '?'), and cut after
// log_quote_length_max characters, so that a hostile or broken answer cannot forge lines or
// flood the log.

#include <cstddef>
#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::size_t log_quote_length_max = 64;

std::string log_quote(std::string_view text);

}  // namespace runwarden

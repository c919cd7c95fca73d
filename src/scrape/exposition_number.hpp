#pragma once
// Numbers in text format 0.0.4, as its reference parser (Go's strconv) reads them. A value is
// a decimal float with optional sign and exponent ("1", "-3e3", ".5", "08", "1."), or
// "NaN", "+Inf", "-Inf" in any letter case ("Inf" and "Infinity" too). Hex floats, digit
// separators ('_') and values beyond the range of a double are refused. A timestamp is a
// decimal int64 with an optional sign.

#include <cstdint>
#include <optional>
#include <string_view>

namespace runwarden {

std::optional<double> parse_sample_value(std::string_view text);
std::optional<std::int64_t> parse_timestamp(std::string_view text);

}  // namespace runwarden

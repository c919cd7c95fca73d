// See exposition_number.hpp. The grammar is checked by hand first, because std::from_chars
// takes forms the format does not ("nan(123)") and refuses one it does (a leading '+');
// from_chars then does the correctly rounded conversion without allocating.
#include "src/scrape/exposition_number.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace runwarden {
namespace {

bool is_digit(char byte) { return byte >= '0' && byte <= '9'; }

bool equal_ignoring_case(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((text[i] | 0x20) != lower[i]) return false;
  return true;
}

std::size_t count_digits(std::string_view text, std::size_t from) {
  std::size_t end = from;
  while (end < text.size() && is_digit(text[end])) ++end;
  return end - from;
}

// [0-9]*(\.[0-9]*)?([eE][+-]?[0-9]+)? with at least one mantissa digit.
bool is_decimal(std::string_view text) {
  std::size_t at = count_digits(text, 0);
  std::size_t mantissa_digits = at;
  if (at < text.size() && text[at] == '.') {
    const std::size_t fraction = count_digits(text, at + 1);
    mantissa_digits += fraction;
    at += 1 + fraction;
  }
  if (mantissa_digits == 0) return false;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
    const std::size_t exponent = count_digits(text, at);
    if (exponent == 0) return false;
    at += exponent;
  }
  return at == text.size();
}

}  // namespace

std::optional<double> parse_sample_value(std::string_view text) {
  if (equal_ignoring_case(text, "nan")) return std::numeric_limits<double>::quiet_NaN();
  const bool negative = !text.empty() && text.front() == '-';
  std::string_view unsigned_text = text;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) unsigned_text.remove_prefix(1);
  if (equal_ignoring_case(unsigned_text, "inf") || equal_ignoring_case(unsigned_text, "infinity"))
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  if (!is_decimal(unsigned_text)) return std::nullopt;
  double value = 0;
  const char* end = unsigned_text.data() + unsigned_text.size();
  const auto [stop, error] = std::from_chars(unsigned_text.data(), end, value);
  if (error != std::errc{} || stop != end) return std::nullopt;
  return negative ? -value : value;
}

std::optional<std::int64_t> parse_timestamp(std::string_view text) {
  const bool has_sign = !text.empty() && (text.front() == '+' || text.front() == '-');
  if (text.size() == std::size_t{has_sign} || !is_digit(text[has_sign ? 1 : 0]))
    return std::nullopt;
  if (text.front() == '+') text.remove_prefix(1);
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end) return std::nullopt;
  return value;
}

}  // namespace runwarden

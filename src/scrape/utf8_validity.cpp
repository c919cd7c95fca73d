// See utf8_validity.hpp. ASCII, by far the common case in label values, takes the first
// branch only; the table follows the Unicode standard's well-formed byte sequences (3.9).
#include "src/scrape/utf8_validity.hpp"

#include <cstddef>

namespace runwarden {
namespace {

bool is_continuation(unsigned char byte, unsigned char low = 0x80, unsigned char high = 0xBF) {
  return byte >= low && byte <= high;
}

// The length of the well-formed sequence starting at `at`, or 0.
std::size_t sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t offset) {
    return static_cast<unsigned char>(text[at + offset]);
  };
  const unsigned char lead = byte(0);
  const std::size_t left = text.size() - at;
  if (lead >= 0xC2 && lead <= 0xDF) return left >= 2 && is_continuation(byte(1)) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;
    const unsigned char high = lead == 0xED ? 0x9F : 0xBF;
    return left >= 3 && is_continuation(byte(1), low, high) && is_continuation(byte(2)) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned char low = lead == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;
    return left >= 4 && is_continuation(byte(1), low, high) && is_continuation(byte(2)) &&
                   is_continuation(byte(3))
               ? 4
               : 0;
  }
  return 0;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    if (static_cast<unsigned char>(text[at]) < 0x80) {
      ++at;
      continue;
    }
    const std::size_t length = sequence_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

}  // namespace runwarden

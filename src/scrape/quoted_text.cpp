// See quoted_text.hpp.
#include "src/scrape/quoted_text.hpp"

namespace runwarden {

std::string quoted(std::string_view text) {
  static constexpr char hex_digits[] = "0123456789abcdef";
  const bool cut = text.size() > quoted_text_bytes_max;
  if (cut) text = text.substr(0, quoted_text_bytes_max);
  std::string result = "\"";
  for (const char byte : text) {
    const auto code = static_cast<unsigned char>(byte);
    if (byte == '"' || byte == '\\') {
      result += '\\';
      result += byte;
    } else if (byte == '\n') {
      result += "\\n";
    } else if (byte == '\t') {
      result += "\\t";
    } else if (code < 0x20 || code >= 0x7f) {
      result += "\\x";
      result += hex_digits[code >> 4];
      result += hex_digits[code & 0xf];
    } else {
      result += byte;
    }
  }
  result += cut ? "\"..." : "\"";
  return result;
}

}  // namespace runwarden

// See uri_encoding.hpp.
#include "src/util/uri_encoding.hpp"

#include <optional>

namespace runwarden {

namespace {

bool unreserved(char character) {
  return (character >= 'A' && character <= 'Z') || (character >= 'a' && character <= 'z') ||
         (character >= '0' && character <= '9') || character == '-' || character == '_' ||
         character == '.' || character == '~';
}

std::optional<int> hex_value(char digit) {
  if (digit >= '0' && digit <= '9') return digit - '0';
  if (digit >= 'A' && digit <= 'F') return digit - 'A' + 10;
  if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
  return std::nullopt;
}

}  // namespace

std::string uri_encode(std::string_view text, slash_encoding slashes) {
  constexpr std::string_view digits = "0123456789ABCDEF";
  std::string encoded;
  encoded.reserve(text.size());
  for (const char character : text) {
    if (unreserved(character) || (character == '/' && slashes == slash_encoding::keep)) {
      encoded.push_back(character);
      continue;
    }
    const auto byte = static_cast<unsigned char>(character);
    encoded.push_back('%');
    encoded.push_back(digits[byte >> 4]);
    encoded.push_back(digits[byte & 0x0f]);
  }
  return encoded;
}

std::string percent_decode(std::string_view text) {
  std::string decoded;
  decoded.reserve(text.size());
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (text[at] == '%' && at + 2 < text.size()) {
      const auto high = hex_value(text[at + 1]);
      const auto low = hex_value(text[at + 2]);
      if (high && low) {
        decoded.push_back(static_cast<char>(*high * 16 + *low));
        at += 2;
        continue;
      }
    }
    decoded.push_back(text[at]);
  }
  return decoded;
}

}  // namespace runwarden

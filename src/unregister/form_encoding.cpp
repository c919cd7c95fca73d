// See form_encoding.hpp.
#include "src/unregister/form_encoding.hpp"

namespace runwarden {

namespace {

bool is_unreserved(unsigned char byte) {
  return (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
         (byte >= '0' && byte <= '9') || byte == '-' || byte == '.' || byte == '_' || byte == '~';
}

}  // namespace

std::string percent_encode(std::string_view text) {
  constexpr std::string_view hex_digits = "0123456789ABCDEF";
  std::string encoded;
  encoded.reserve(text.size());
  for (const char character : text) {
    const auto byte = static_cast<unsigned char>(character);
    if (is_unreserved(byte)) {
      encoded += character;
      continue;
    }
    encoded += '%';
    encoded += hex_digits[byte >> 4];
    encoded += hex_digits[byte & 0x0f];
  }
  return encoded;
}

std::string form_encode(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string body;
  for (const auto& [name, value] : fields) {
    if (!body.empty()) body += '&';
    body += percent_encode(name) + "=" + percent_encode(value);
  }
  return body;
}

}  // namespace runwarden

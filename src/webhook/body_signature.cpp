// See body_signature.hpp. OpenSSL's one-shot HMAC() does the work; only the hex is ours.
#include "src/webhook/body_signature.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <cassert>

namespace runwarden {

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  const auto* result =
      HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest.data(),
           &length);
  // Only a broken OpenSSL fails here: SHA-256 is always built in.
  assert(result != nullptr && length == 32);
  (void)result;
  constexpr std::string_view digits = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(digits[digest[i] >> 4]);
    hex.push_back(digits[digest[i] & 0x0f]);
  }
  return hex;
}

std::string signature_header_value(std::string_view secret, std::string_view body) {
  return "sha256=" + hmac_sha256_hex(secret, body);
}

}  // namespace runwarden

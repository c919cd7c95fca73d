// See sha256_digest.hpp.
#include "src/util/sha256_digest.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>

#include "src/util/assert.hpp"

namespace runwarden {

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  const int ok =
      EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_sha256(), nullptr);
  // Only a broken OpenSSL fails here: SHA-256 is always built in.
  RUNWARDEN_ASSERT(ok == 1 && length == 32);
  return lowercase_hex({reinterpret_cast<const char*>(digest.data()), length});
}

std::string hmac_sha256_bytes(std::string_view key, std::string_view message) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  const auto* result = HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
                            reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                            digest.data(), &length);
  RUNWARDEN_ASSERT(result != nullptr && length == 32);
  return {reinterpret_cast<const char*>(digest.data()), length};
}

std::string lowercase_hex(std::string_view bytes) {
  constexpr std::string_view digits = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * bytes.size());
  for (const char byte : bytes) {
    const auto value = static_cast<unsigned char>(byte);
    hex.push_back(digits[value >> 4]);
    hex.push_back(digits[value & 0x0f]);
  }
  return hex;
}

}  // namespace runwarden

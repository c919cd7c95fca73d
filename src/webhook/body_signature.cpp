// See body_signature.hpp.
#include "src/webhook/body_signature.hpp"

#include "src/util/sha256_digest.hpp"

namespace runwarden {

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  return lowercase_hex(hmac_sha256_bytes(key, message));
}

std::string signature_header_value(std::string_view secret, std::string_view body) {
  return "sha256=" + hmac_sha256_hex(secret, body);
}

}  // namespace runwarden

#pragma once
// SHA-256 and HMAC-SHA256, both done by OpenSSL: SigV4 is built from them (hashes as
// lowercase hex, HMACs as raw bytes since its signing key is a chain of HMACs each keyed by
// the last), and so is the webhook's body signature.

#include <string>
#include <string_view>

namespace runwarden {

// Lowercase hex of SHA-256(data).
std::string sha256_hex(std::string_view data);

// The 32 raw bytes of HMAC-SHA256(key, message).
std::string hmac_sha256_bytes(std::string_view key, std::string_view message);

// Lowercase hex of arbitrary bytes.
std::string lowercase_hex(std::string_view bytes);

}  // namespace runwarden

#pragma once
// The two primitives SigV4 is built from, both done by OpenSSL: SHA-256 of a payload or a
// canonical request (as lowercase hex, the form SigV4 writes hashes in), and HMAC-SHA256
// returning raw bytes, since the signing key is a chain of HMACs each keyed by the last.

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

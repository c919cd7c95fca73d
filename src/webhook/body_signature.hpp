#pragma once
// The webhook's signature: HMAC-SHA256 of the exact body bytes under the operator's secret,
// sent as "X-Runwarden-Signature: sha256=<lowercase hex>" in the form GitHub uses for its
// webhooks, so receivers can reuse the verification code they already have. The secret is
// never logged, and neither is a signature (it would let anyone test guesses offline).

#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::string_view signature_header_name = "X-Runwarden-Signature";

// Lowercase hex of HMAC-SHA256(key, message).
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

// "sha256=" followed by hmac_sha256_hex(secret, body).
std::string signature_header_value(std::string_view secret, std::string_view body);

}  // namespace runwarden

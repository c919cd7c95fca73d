#pragma once
// The instance role's temporary credentials, third source of the SDKs' chain: IMDSv2 lists
// the role name at imds_role_list_path and serves a JSON document for it:
//   {"Code": "Success", "AccessKeyId": "ASIA...", "SecretAccessKey": "...", "Token": "...",
//    "Expiration": "2024-05-01T18:00:00Z", ...}
// parsed with nlohmann-json. Parse errors say where and what, never quote the body, which
// holds the secret key.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "src/aws/aws_credentials.hpp"

namespace runwarden {

inline constexpr std::string_view imds_role_list_path =
    "/latest/meta-data/iam/security-credentials/";

struct role_credentials {
  aws_credentials credentials;  // with its session token
  std::chrono::system_clock::time_point expiration;
};

struct role_credentials_parse {
  std::optional<role_credentials> role;  // set exactly when error is empty
  std::string error;
};

role_credentials_parse parse_role_credentials(std::string_view body);

// The first role name in the listing's body (one name a line); nullopt when there is none,
// which means the instance has no instance profile.
std::optional<std::string> first_role_name(std::string_view listing);

}  // namespace runwarden

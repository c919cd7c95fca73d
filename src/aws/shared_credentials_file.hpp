#pragma once
// Credentials from the shared credentials file (~/.aws/credentials), the second source of
// the SDKs' chain: an INI file of [profile] sections with aws_access_key_id,
// aws_secret_access_key and optionally aws_session_token, read with Boost.PropertyTree's INI
// parser. The file's content comes in; reading it (and treating a missing default file as
// "not configured") is the caller's. Errors name the file, line, profile and key only.

#include <string>
#include <string_view>

#include "src/aws/credentials_lookup.hpp"

namespace runwarden {

// AWS_SHARED_CREDENTIALS_FILE, else $HOME/.aws/credentials; empty when neither is known.
std::string shared_credentials_path(const environment_map& environment);

// AWS_PROFILE, else "default".
std::string credentials_profile(const environment_map& environment);

// `path` only names the file in errors. A profile the file lacks is an error: the operator
// pointed runwarden at this file and profile.
credentials_lookup credentials_from_shared_file(std::string_view content, const std::string& path,
                                                const std::string& profile);

}  // namespace runwarden

#pragma once
// One set of AWS credentials as every source (environment, shared credentials file, the
// instance role) yields it. The access key id is not secret (it travels in every
// Authorization header); the secret key and the session token are secret_text, so they
// cannot end up in a log line or an error message by accident.

#include <optional>
#include <string>

#include "src/util/secret_text.hpp"

namespace runwarden {

struct aws_credentials {
  std::string access_key_id;
  secret_text secret_access_key;
  std::optional<secret_text> session_token;  // temporary credentials only
};

}  // namespace runwarden

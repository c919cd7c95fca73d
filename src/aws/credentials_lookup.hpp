#pragma once
// What one credentials source answers: credentials, nothing (the source is not configured
// here, so the chain goes on to the next), or an error (it is configured but wrong, which
// stops the chain: falling through to other credentials would hide the mistake). Errors
// name variables, files, profiles and keys, never a value.

#include <map>
#include <optional>
#include <string>

#include "src/aws/aws_credentials.hpp"

#include "src/util/process_environment.hpp"

namespace runwarden {

// The process environment, passed in so that tests and the simulation choose it.

struct credentials_lookup {
  std::optional<aws_credentials> credentials;  // never set together with error
  std::string error;
};

}  // namespace runwarden

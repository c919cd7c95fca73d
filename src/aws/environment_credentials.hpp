#pragma once
// Credentials from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, the first
// source of the SDKs' chain. Empty variables count as unset. Only one of the key pair set is
// an error rather than a silent fall-through to another identity.

#include "src/aws/credentials_lookup.hpp"

namespace runwarden {

credentials_lookup credentials_from_environment(const environment_map& environment);

}  // namespace runwarden

#pragma once
// The SDKs' credentials chain, the part settled at start: the environment first, then the
// shared credentials file, and when neither is configured, the instance role (fetched
// through IMDSv2 later, by the Auto Scaling client, and refreshed before it expires). A
// source that is configured but wrong stops the chain with its error, since falling through
// to another identity would hide the mistake.

#include <optional>
#include <string>

#include "src/aws/credentials_lookup.hpp"

namespace runwarden {

struct credentials_chain_start {
  std::optional<aws_credentials> fixed = std::nullopt;  // from the environment or the shared file
  bool use_instance_role = false;                       // neither is configured
  std::string source = {};                              // where `fixed` came from, for the log
  std::string error = {};                               // a configured source is wrong
};

// `shared_file` is the content of shared_credentials_path(environment), nullopt when that
// file does not exist. A missing default file means "not configured"; a missing file that
// AWS_SHARED_CREDENTIALS_FILE names is an error.
credentials_chain_start start_credentials_chain(const environment_map& environment,
                                                const std::optional<std::string>& shared_file);

}  // namespace runwarden

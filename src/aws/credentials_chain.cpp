// See credentials_chain.hpp.
#include "src/aws/credentials_chain.hpp"

#include "src/aws/environment_credentials.hpp"
#include "src/aws/shared_credentials_file.hpp"

namespace runwarden {

credentials_chain_start start_credentials_chain(const environment_map& environment,
                                                const std::optional<std::string>& shared_file) {
  auto from_environment = credentials_from_environment(environment);
  if (!from_environment.error.empty()) return {.error = std::move(from_environment.error)};
  if (from_environment.credentials)
    return {.fixed = std::move(from_environment.credentials), .source = "the environment"};
  const auto path = shared_credentials_path(environment);
  if (!shared_file) {
    if (environment.contains("AWS_SHARED_CREDENTIALS_FILE"))
      return {.error = "AWS_SHARED_CREDENTIALS_FILE names " + path + ", which cannot be read"};
    return {.use_instance_role = true, .source = "the instance role"};
  }
  const auto profile = credentials_profile(environment);
  auto from_file = credentials_from_shared_file(*shared_file, path, profile);
  if (!from_file.error.empty()) return {.error = std::move(from_file.error)};
  if (!from_file.credentials) return {.use_instance_role = true, .source = "the instance role"};
  return {.fixed = std::move(from_file.credentials), .source = path + " (profile " + profile + ")"};
}

}  // namespace runwarden

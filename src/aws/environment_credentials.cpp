// See environment_credentials.hpp.
#include "src/aws/environment_credentials.hpp"

namespace runwarden {

namespace {

std::optional<std::string> variable(const environment_map& environment, const char* name) {
  const auto found = environment.find(name);
  if (found == environment.end() || found->second.empty()) return std::nullopt;
  return found->second;
}

}  // namespace

credentials_lookup credentials_from_environment(const environment_map& environment) {
  const auto key_id = variable(environment, "AWS_ACCESS_KEY_ID");
  const auto secret = variable(environment, "AWS_SECRET_ACCESS_KEY");
  if (!key_id && !secret) return {};
  if (!key_id) return {std::nullopt, "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not"};
  if (!secret) return {std::nullopt, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"};
  aws_credentials credentials{*key_id, secret_text{*secret}, std::nullopt};
  if (const auto token = variable(environment, "AWS_SESSION_TOKEN"))
    credentials.session_token = secret_text{*token};
  return {std::move(credentials), {}};
}

}  // namespace runwarden

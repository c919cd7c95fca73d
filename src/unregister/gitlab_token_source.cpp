// See gitlab_token_source.hpp.
#include "src/unregister/gitlab_token_source.hpp"

#include "src/runner/gitlab_runner_config_loader.hpp"

namespace runwarden {

token_reading reading_of(const gitlab_runner_config_result& loaded,
                         const gitlab_runner_entry_key& key) {
  if (!loaded.config) {
    std::string problem;
    for (const auto& error : loaded.errors) problem += (problem.empty() ? "" : "; ") + error;
    return {token_reading_kind::unreadable, {}, std::move(problem)};
  }
  const gitlab_runner_entry* entry = find_entry(*loaded.config, key);
  if (entry == nullptr) return {token_reading_kind::entry_missing, {}, {}};
  return {token_reading_kind::found, entry->token, {}};
}

token_reading read_gitlab_token(const gitlab_token_source& source) {
  return reading_of(load_gitlab_runner_config(source.config_path), source.key);
}

}  // namespace runwarden

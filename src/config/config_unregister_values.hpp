#pragma once
// The config file's [unregister], [unregister.gitlab] and [unregister.github] tables: one
// reader per key (bound to its row in config_schema.cpp) and the checks that span them, such
// as the keys a GitHub scope needs, or GitLab keys set while kind is "github".

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_unregister_kind(config_value& value);
bool read_unregister_timeout(config_value& value);
bool read_unregister_retry_initial(config_value& value);
bool read_unregister_retry_max(config_value& value);
bool read_unregister_attempts_max(config_value& value);

bool read_gitlab_unregister_name(config_value& value);
bool read_gitlab_unregister_url(config_value& value);
bool read_gitlab_unregister_token_file(config_value& value);
bool read_gitlab_unregister_system_id_file(config_value& value);

bool read_github_unregister_api_url(config_value& value);
bool read_github_unregister_scope(config_value& value);
bool read_github_unregister_owner(config_value& value);
bool read_github_unregister_repo(config_value& value);
bool read_github_unregister_org(config_value& value);
bool read_github_unregister_enterprise(config_value& value);
bool read_github_unregister_runner_name(config_value& value);
bool read_github_unregister_token_file(config_value& value);

// Every check across the unregister keys, once each key has been read on its own.
void check_unregister_keys(config_reader& reader);

}  // namespace runwarden

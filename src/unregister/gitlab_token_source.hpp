#pragma once
// Where a GitLab runner's token is read again before each unregistration attempt and after
// GitLab refuses one: gitlab-runner's config.toml, whose [[runners]] entry gitlab-runner
// rewrites with a new token when it rotates an expiring one (commands/multi.go
// resetOneRunnerToken, common/reset_token.go; gitlab-runner MR 3209). Runners configured
// with [unregister.gitlab] token_file have no source: gitlab-runner rewrites no such file.
//
// A reading holds the token as secret_text; problems name the file, line and key only.

#include <cstdint>
#include <string>

#include "src/runner/gitlab_runner_config.hpp"
#include "src/runner/gitlab_runner_entry_key.hpp"
#include "src/util/secret_text.hpp"

namespace runwarden {

struct gitlab_token_source {
  std::string config_path;  // gitlab-runner's config.toml
  gitlab_runner_entry_key key;
};

enum class token_reading_kind : std::uint8_t {
  found,          // the entry is there; its token may be empty (see has_token)
  entry_missing,  // the file reads, and no entry has the key
  unreadable,     // the file is gone, too large, or does not parse
};

struct token_reading {
  token_reading_kind kind = token_reading_kind::unreadable;
  secret_text token = {};    // found: the entry's token now
  std::string problem = {};  // unreadable: why, without the file's content
};

// What a loaded (or failed) config.toml says of the entry with `key`. Pure.
token_reading reading_of(const gitlab_runner_config_result& loaded,
                         const gitlab_runner_entry_key& key);

// Reads config.toml now (bounded, as at start) and says what it holds for the runner.
token_reading read_gitlab_token(const gitlab_token_source& source);

}  // namespace runwarden

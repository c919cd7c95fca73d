#pragma once
// Which [[runners]] entry of gitlab-runner's config.toml is "this runner", found again in a
// later reading of the file. The token cannot be the key: a token rotation (gitlab-runner's
// resetOneRunnerToken, commands/multi.go, since MR 3209) replaces exactly it, together with
// token_obtained_at and token_expires_at, and leaves the rest of the entry and the order of
// the entries as they were.
//
// The key is the one gitlab-runner itself uses to find an entry without its token,
// RunnerByURLAndID (common/config.go): the GitLab URL and the runner's id, which `register`
// writes since gitlab-runner 15.x. An entry without an id (older registrations) is found by
// its position in the file, and only if it still has the same url and name there. Pure.

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/runner/gitlab_runner_config.hpp"

namespace runwarden {

struct gitlab_runner_entry_key {
  std::string url;
  std::int64_t id = 0;  // 0: the entry has no id; found by index, url and name
  std::string name;
  std::size_t index = 0;  // the entry's position among the [[runners]] entries
};

// The key of config.runners[index]; index must be in range.
gitlab_runner_entry_key key_of(const gitlab_runner_config& config, std::size_t index);

// The entry with that key, or nullptr when the file no longer has it (`gitlab-runner
// unregister` removes the entry it unregistered).
const gitlab_runner_entry* find_entry(const gitlab_runner_config& config,
                                      const gitlab_runner_entry_key& key);

}  // namespace runwarden

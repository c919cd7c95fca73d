// See gitlab_runner_entry_key.hpp.
#include "src/runner/gitlab_runner_entry_key.hpp"

#include "src/util/assert.hpp"

namespace runwarden {

gitlab_runner_entry_key key_of(const gitlab_runner_config& config, std::size_t index) {
  RUNWARDEN_ASSERT(index < config.runners.size());
  const gitlab_runner_entry& entry = config.runners[index];
  return {entry.url, entry.id, entry.name, index};
}

const gitlab_runner_entry* find_entry(const gitlab_runner_config& config,
                                      const gitlab_runner_entry_key& key) {
  if (key.id != 0) {
    for (const gitlab_runner_entry& entry : config.runners)
      if (entry.id == key.id && entry.url == key.url) return &entry;
    return nullptr;
  }
  if (key.index >= config.runners.size()) return nullptr;
  const gitlab_runner_entry& entry = config.runners[key.index];
  if (entry.id != 0 || entry.url != key.url || entry.name != key.name) return nullptr;
  return &entry;
}

}  // namespace runwarden

#pragma once
// How many jobs a gitlab-runner process runs at once, from its two bounds: `concurrent`
// caps the whole process, each [[runners]] entry's `limit` caps that entry (0: no limit).
// The process runs at most `concurrent`, and at most the sum of the limits when every entry
// has one. Shared by the metrics page's reading (gitlab_runner_load) and the scaler's
// capacity taken from config.toml, so both count the same way. It lives beside the page
// reading so that the parser's fuzz build (scripts/fuzz.sh) needs nothing else.

#include <cstdint>
#include <optional>
#include <span>

namespace runwarden {

// Empty when neither bound is known. `jobs_max_per_entry` empty: the limits are unknown.
std::optional<std::uint64_t> runner_capacity(std::optional<std::uint64_t> concurrent,
                                             std::span<const std::uint64_t> jobs_max_per_entry);

}  // namespace runwarden

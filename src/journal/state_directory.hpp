#pragma once
// The state directory on disk: made ready before the journal opens (so that a directory
// runwarden cannot write is a refusal to start, not a drain that cannot be recorded), and
// the journal retired once a drain reached gone, so that the next start begins afresh.

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace runwarden {

// Nullopt when `directory` may hold the journal of a runwarden running as `owner`: it
// belongs to `owner` and neither group nor others may write in it. Otherwise the problem,
// naming the directory and its owner or mode. Whoever may write there could plant a forged
// journal (naming a pid to signal) or a link that makes runwarden write elsewhere.
std::optional<std::string> state_directory_problem(const std::filesystem::path& directory,
                                                   uid_t owner);

// Creates the directory (and missing parents) with mode 0700, checks it as above, and
// proves it writable by creating and removing a file in it. The error names the directory
// and the reason. Every file in it is opened with O_NOFOLLOW: a planted link is refused.
std::optional<std::string> prepare_state_directory(const std::filesystem::path& directory);

// Compaction at gone: renames journal to journal.prev (replacing an older one) and syncs
// the directory. Nothing to do when there is no journal.
std::optional<std::string> retire_journal(const std::filesystem::path& directory);

// A rename or a new file is durable only once the directory holding it is synced.
std::optional<std::string> sync_directory(const std::filesystem::path& directory);

}  // namespace runwarden

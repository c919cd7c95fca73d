#pragma once
// Where the journal lives. The state directory is /var/lib/runwarden for root (systemd's
// StateDirectory= convention), else $XDG_STATE_HOME/runwarden, falling back to
// ~/.local/state/runwarden as the XDG Base Directory specification says. Pure: the uid and
// the environment come in as arguments.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace runwarden {

// nullopt when neither an absolute XDG_STATE_HOME nor HOME is set for a non-root user.
std::optional<std::filesystem::path> default_state_directory(
    std::uint32_t uid, std::optional<std::string_view> xdg_state_home,
    std::optional<std::string_view> home);

// The live journal, and the one kept for inspection after a finished drain.
std::filesystem::path journal_file(const std::filesystem::path& state_directory);
std::filesystem::path previous_journal_file(const std::filesystem::path& state_directory);

}  // namespace runwarden

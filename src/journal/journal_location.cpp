// See journal_location.hpp.
#include "src/journal/journal_location.hpp"

namespace runwarden {

std::optional<std::filesystem::path> default_state_directory(
    std::uint32_t uid, std::optional<std::string_view> xdg_state_home,
    std::optional<std::string_view> home) {
  if (uid == 0) return std::filesystem::path{"/var/lib/runwarden"};
  // The specification says a relative XDG_STATE_HOME is invalid and must be ignored.
  if (xdg_state_home && xdg_state_home->starts_with('/'))
    return std::filesystem::path{*xdg_state_home} / "runwarden";
  if (home && !home->empty())
    return std::filesystem::path{*home} / ".local" / "state" / "runwarden";
  return std::nullopt;
}

std::filesystem::path journal_file(const std::filesystem::path& state_directory) {
  return state_directory / "journal";
}

std::filesystem::path previous_journal_file(const std::filesystem::path& state_directory) {
  return state_directory / "journal.prev";
}

}  // namespace runwarden

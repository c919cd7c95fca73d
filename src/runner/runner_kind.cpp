// The table of runner kinds. Each row says which signal asks the runner to drain and which
// one aborts it; only the generic kind lets the config pick, since gitlab-runner's meaning
// of each signal is fixed by gitlab-runner itself.

#include "src/runner/runner_kind.hpp"

#include <array>
#include <csignal>
#include <cstddef>

namespace runwarden {

namespace {

// Rows are in the enum's order so that kind_of can index by the enum value.
constexpr std::array<runner_kind, 2> runner_kinds{{
    {runner_kind_name::gitlab, "gitlab", SIGQUIT, SIGTERM, false},
    {runner_kind_name::generic, "generic", SIGTERM, SIGKILL, true},
}};

constexpr bool rows_follow_enum_order() {
  for (std::size_t index = 0; index < runner_kinds.size(); ++index) {
    if (static_cast<std::size_t>(runner_kinds[index].name) != index) return false;
  }
  return true;
}
static_assert(rows_follow_enum_order());

constexpr std::string_view gitlab_executable = "gitlab-runner";

}  // namespace

const runner_kind& kind_of(runner_kind_name name) {
  // at() throws for a value cast from outside the enum: a bug, so it may crash.
  return runner_kinds.at(static_cast<std::size_t>(name));
}

std::span<const runner_kind> known_runner_kinds() { return runner_kinds; }

std::optional<runner_kind_name> parse_runner_kind(std::string_view text) {
  for (const runner_kind& kind : runner_kinds) {
    if (kind.text == text) return kind.name;
  }
  return std::nullopt;
}

runner_kind_name guess_runner_kind(std::string_view executable) {
  // npos + 1 wraps to 0, so a bare name without a directory is its own basename.
  const std::string_view basename = executable.substr(executable.rfind('/') + 1);
  return basename == gitlab_executable ? runner_kind_name::gitlab : runner_kind_name::generic;
}

}  // namespace runwarden

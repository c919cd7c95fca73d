// See target_lifecycle_state.hpp.
#include "src/aws/imds/target_lifecycle_state.hpp"

namespace runwarden {

std::string_view to_string(target_lifecycle_state state) {
  switch (state) {
    case target_lifecycle_state::in_service:
      return "InService";
    case target_lifecycle_state::terminated:
      return "Terminated";
    case target_lifecycle_state::detached:
      return "Detached";
    case target_lifecycle_state::standby:
      return "Standby";
    case target_lifecycle_state::warmed_terminated:
      return "Warmed:Terminated";
    case target_lifecycle_state::warmed_stopped:
      return "Warmed:Stopped";
    case target_lifecycle_state::warmed_running:
      return "Warmed:Running";
    case target_lifecycle_state::warmed_hibernated:
      return "Warmed:Hibernated";
  }
  return "unknown";
}

std::optional<target_lifecycle_state> parse_target_lifecycle_state(std::string_view text) {
  constexpr std::string_view blanks = " \t\r\n";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return std::nullopt;
  text = text.substr(first, text.find_last_not_of(blanks) - first + 1);
  for (const auto state : all_target_lifecycle_states)
    if (to_string(state) == text) return state;
  return std::nullopt;
}

}  // namespace runwarden

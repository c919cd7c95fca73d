#pragma once
// The values of /latest/meta-data/autoscaling/target-lifecycle-state: the state Auto
// Scaling is moving the instance to. The page is a level, not an event, and answers 404
// until the instance's first transition.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace runwarden {

enum class target_lifecycle_state : std::uint8_t {
  in_service,
  terminated,
  detached,
  standby,
  warmed_terminated,
  warmed_stopped,
  warmed_running,
  warmed_hibernated,
};

inline constexpr std::array<target_lifecycle_state, 8> all_target_lifecycle_states{
    target_lifecycle_state::in_service,        target_lifecycle_state::terminated,
    target_lifecycle_state::detached,          target_lifecycle_state::standby,
    target_lifecycle_state::warmed_terminated, target_lifecycle_state::warmed_stopped,
    target_lifecycle_state::warmed_running,    target_lifecycle_state::warmed_hibernated,
};

// AWS's own spelling: "InService", "Warmed:Terminated".
std::string_view to_string(target_lifecycle_state state);
// Exact and case-sensitive, as AWS writes them; surrounding whitespace is ignored.
std::optional<target_lifecycle_state> parse_target_lifecycle_state(std::string_view text);

}  // namespace runwarden

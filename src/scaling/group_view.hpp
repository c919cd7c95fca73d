#pragma once
// What the scaler needs from a freshly read Auto Scaling group: its bounds, its desired
// capacity, how many instances are on their way in or out, and where this instance stands.
// Pending counts instances still launching plus those the group wants but has not listed
// yet (desired above the instances not leaving), so a burst of scale-ups that already
// raised desired is seen before its instances exist.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/aws/autoscaling_answers.hpp"

namespace runwarden {

struct group_view {
  std::string group_name = {};
  std::int32_t min_size = 0;
  std::int32_t max_size = 0;
  std::int32_t desired_capacity = 0;
  std::int32_t pending = 0;                    // launching (Pending*), or wanted and not listed yet
  std::int32_t terminating = 0;                // Terminating* (scale-in or a replacement under way)
  std::optional<std::string> self_state = {};  // empty: this instance is not in the list
  bool self_protected = false;
  friend bool operator==(const group_view&, const group_view&) = default;
};

group_view view_of(const auto_scaling_group& group, std::string_view self_instance_id);

}  // namespace runwarden

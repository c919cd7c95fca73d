// See instance_retention.hpp.
#include "src/aws/instance_retention.hpp"

namespace runwarden {

bool is_retained_state(std::string_view lifecycle_state) {
  constexpr std::string_view suffix = ":Retained";
  return lifecycle_state.size() > suffix.size() && lifecycle_state.ends_with(suffix);
}

autoscaling_call terminate_retained_instance(const std::string& instance_id) {
  return terminate_instance_in_auto_scaling_group(instance_id, false);
}

}  // namespace runwarden

// See group_view.hpp. Lifecycle states are matched by prefix, as AWS spells them:
// "Pending", "Pending:Wait", "Pending:Proceed"; "Terminating", "Terminating:Wait",
// "Terminating:Proceed". Instances leaving (Terminat*, Detach*) or set aside (Standby,
// EnteringStandby) are not counted against desired capacity, as the group counts them.
#include "src/scaling/group_view.hpp"

#include <algorithm>

namespace runwarden {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool counts_toward_desired(std::string_view state) {
  return !starts_with(state, "Terminat") && !starts_with(state, "Detach") && state != "Standby" &&
         state != "EnteringStandby";
}

}  // namespace

group_view view_of(const auto_scaling_group& group, std::string_view self_instance_id) {
  group_view view{.group_name = group.group_name,
                  .min_size = group.min_size,
                  .max_size = group.max_size,
                  .desired_capacity = group.desired_capacity};
  std::int32_t staying = 0;  // instances neither leaving nor gone
  for (const group_member& member : group.instances) {
    const std::string_view state = member.lifecycle_state;
    if (member.instance_id == self_instance_id) {
      view.self_state = member.lifecycle_state;
      view.self_protected = member.protected_from_scale_in;
    }
    if (starts_with(state, "Pending")) ++view.pending;
    if (starts_with(state, "Terminating")) ++view.terminating;
    if (counts_toward_desired(state)) ++staying;
  }
  view.pending += std::max(0, view.desired_capacity - staying);
  return view;
}

}  // namespace runwarden

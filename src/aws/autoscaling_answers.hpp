#pragma once
// The Describe* answers runwarden reads, parsed with pugixml into the few fields it uses.
// A member that lacks a field runwarden needs makes the whole answer an error naming the
// element: a half-read group must not become a scaling decision.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden {

// DescribeAutoScalingInstances: which group an instance is in (how runwarden finds its own).
struct autoscaling_instance {
  std::string instance_id;
  std::string group_name;
  std::string availability_zone;
  std::string lifecycle_state;  // "InService", "Terminating:Wait", ...
  std::string health_status;    // "HEALTHY", "UNHEALTHY"
  bool protected_from_scale_in = false;
};

// DescribeLifecycleHooks: the timeouts that pace heartbeats.
struct lifecycle_hook {
  std::string hook_name;
  std::string group_name;
  std::string transition;  // "autoscaling:EC2_INSTANCE_TERMINATING" or ..._LAUNCHING
  std::chrono::seconds heartbeat_timeout{0};
  std::chrono::seconds global_timeout{0};
  std::string default_result;  // "CONTINUE" or "ABANDON"
};

// DescribeAutoScalingGroups: capacity and members, for scaling.
struct group_member {
  std::string instance_id;
  std::string lifecycle_state;
  std::string health_status;
  bool protected_from_scale_in = false;
};

struct auto_scaling_group {
  std::string group_name;
  int min_size = 0;
  int max_size = 0;
  int desired_capacity = 0;
  std::vector<group_member> instances;
};

template <typename Item>
struct describe_answer {
  std::vector<Item> items;
  std::optional<std::string> next_token;  // more pages to fetch
  std::string error;                      // when set, items is empty
};

describe_answer<autoscaling_instance> parse_describe_auto_scaling_instances(std::string_view body);
describe_answer<lifecycle_hook> parse_describe_lifecycle_hooks(std::string_view body);
describe_answer<auto_scaling_group> parse_describe_auto_scaling_groups(std::string_view body);

}  // namespace runwarden

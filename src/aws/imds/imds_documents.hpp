#pragma once
// The JSON documents the watcher reads from the instance metadata service, parsed with
// nlohmann-json and checked field by field. A document that does not parse, or lacks a
// field, gives an error naming the page and the problem, never a half-filled value: a
// malformed spot notice must not turn into a drain with a made-up deadline.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::string_view imds_lifecycle_state_path =
    "/latest/meta-data/autoscaling/target-lifecycle-state";
inline constexpr std::string_view imds_spot_action_path = "/latest/meta-data/spot/instance-action";
inline constexpr std::string_view imds_rebalance_path =
    "/latest/meta-data/events/recommendations/rebalance";
inline constexpr std::string_view imds_identity_path = "/latest/dynamic/instance-identity/document";

using wall_time = std::chrono::system_clock::time_point;

// {"action": "terminate" | "stop" | "hibernate", "time": "2017-09-18T08:22:00Z"}
struct spot_instance_action {
  std::string action;
  wall_time time;
};

struct spot_action_parse {
  std::optional<spot_instance_action> notice;  // set exactly when error is empty
  std::string error;
};

spot_action_parse parse_spot_instance_action(std::string_view body);

// {"noticeTime": "2020-10-27T08:22:00Z"}
struct rebalance_parse {
  std::optional<wall_time> notice_time;  // set exactly when error is empty
  std::string error;
};

rebalance_parse parse_rebalance_recommendation(std::string_view body);

// The three fields runwarden needs of the identity document.
struct instance_identity {
  std::string instance_id;
  std::string region;
  std::string account_id;
  friend bool operator==(const instance_identity&, const instance_identity&) = default;
};

struct identity_parse {
  std::optional<instance_identity> identity;  // set exactly when error is empty
  std::string error;
};

identity_parse parse_instance_identity(std::string_view body);

}  // namespace runwarden

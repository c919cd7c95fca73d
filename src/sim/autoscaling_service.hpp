#pragma once
// The simulated Auto Scaling API (Query protocol) over the fleet world: the calls runwarden
// makes, answered with the XML AWS sends and the errors AWS gives ("No active Lifecycle
// Action found", desired capacity out of bounds, and a decrement refused at the group's
// minimum in the words AWS answers TerminateInstanceInAutoScalingGroup with, as aws-cli's
// and nomad-autoscaler's users have quoted it: the API reference names no message), and
// SetInstanceHealth's replacement of an Unhealthy instance. The group is "sim-fleet"; its
// hooks are "sim-launch" (when the scenario has one) and "sim-terminate".

#include <map>
#include <string>

#include "messages/http_messages.hpp"
#include "src/sim/fleet_world.hpp"

namespace runwarden {

inline constexpr const char* sim_group_name = "sim-fleet";
inline constexpr const char* sim_launch_hook = "sim-launch";
inline constexpr const char* sim_terminate_hook = "sim-terminate";

// The call a request's form names (its Action), or empty.
std::string autoscaling_action(const std::string& body);

class autoscaling_service {
 public:
  explicit autoscaling_service(fleet_world& world) : world_(world) {}

  // The answer to one signed POST; the form's Action says which call it is.
  http_response answer(const std::string& body, sim_seconds now);

 private:
  using form = std::map<std::string, std::string>;
  http_response set_instance_health(const form& parameters, std::size_t index, sim_seconds now);

  fleet_world& world_;
};

}  // namespace runwarden

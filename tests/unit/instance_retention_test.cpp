// The retained lifecycle states (the user guide's "Manage retained instances" lists them) and
// the call that ends a retained instance.
#include <catch2/catch.hpp>

#include "src/aws/instance_retention.hpp"

using namespace runwarden;

TEST_CASE("the retained states are recognised, and no others", "[retention]") {
  for (const auto* state :
       {"Terminating:Retained", "Warmed:Pending:Retained", "Warmed:Terminating:Retained"})
    CHECK(is_retained_state(state));
  for (const auto* state : {"Terminating:Wait", "Terminating:Proceed", "Terminated", "InService",
                            "Warmed:Pending:Wait", ":Retained", "Retained", ""})
    CHECK_FALSE(is_retained_state(state));
}

TEST_CASE("a retained instance is terminated without decrementing the desired capacity",
          "[retention]") {
  const auto call = terminate_retained_instance("i-0123456789abcdef0");
  CHECK(call.action == "TerminateInstanceInAutoScalingGroup");
  const form_parameter_list expected{{"Action", "TerminateInstanceInAutoScalingGroup"},
                                     {"Version", "2011-01-01"},
                                     {"InstanceId", "i-0123456789abcdef0"},
                                     {"ShouldDecrementDesiredCapacity", "false"}};
  CHECK(call.parameters == expected);
}

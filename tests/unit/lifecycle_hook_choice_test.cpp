// Which lifecycle hook runwarden answers, where an instance stands with its terminate hooks,
// and when a hook ends by itself (AWS's ceilings included).
#include <catch2/catch.hpp>

#include "src/aws/lifecycle_hook_choice.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

lifecycle_hook hook(std::string name, std::string_view transition,
                    std::chrono::seconds heartbeat = 300s, std::chrono::seconds global = 3600s) {
  return {std::move(name), "runners", std::string{transition}, heartbeat, global, "CONTINUE"};
}

}  // namespace

TEST_CASE("the instance's LifecycleState says whether a terminate hook waits", "[hooks]") {
  CHECK(terminate_wait_of("Terminating:Wait") == terminate_wait::waiting);
  CHECK(terminate_wait_of("InService") == terminate_wait::not_yet);
  CHECK(terminate_wait_of("Terminating") == terminate_wait::not_yet);
  CHECK(terminate_wait_of("Terminating:Proceed") == terminate_wait::past);
  CHECK(terminate_wait_of("Terminated") == terminate_wait::past);
  CHECK(terminate_wait_of("Terminating:Retained") == terminate_wait::retained);
  CHECK(terminate_wait_of("Warmed:Terminating:Retained") == terminate_wait::retained);
  for (const auto* state : {"Pending", "Pending:Wait", "Standby", "Detaching", "Warmed:Running",
                            "(in no Auto Scaling group)", ""})
    CHECK(terminate_wait_of(state) == terminate_wait::not_leaving);
}

TEST_CASE("the one hook of the transition is chosen, or the named one", "[hooks]") {
  const std::vector<lifecycle_hook> hooks{hook("warm-up", launching_transition),
                                          hook("drain", terminating_transition)};
  auto chosen = choose_hook(hooks, terminating_transition, std::nullopt, "aws.lifecycle_hook");
  REQUIRE(chosen.hook);
  CHECK(chosen.hook->hook_name == "drain");
  chosen = choose_hook(hooks, launching_transition, "warm-up", "aws.launch_hook");
  REQUIRE(chosen.hook);
  CHECK(chosen.hook->hook_name == "warm-up");
}

TEST_CASE("no hook, a wrong name and several hooks are told apart", "[hooks]") {
  const std::vector<lifecycle_hook> two{hook("drain", terminating_transition),
                                        hook("backup", terminating_transition)};
  const auto none = choose_hook({hook("warm-up", launching_transition)}, terminating_transition,
                                std::nullopt, "aws.lifecycle_hook");
  CHECK_FALSE(none.hook);
  CHECK(none.problem.empty());
  const auto several = choose_hook(two, terminating_transition, std::nullopt, "aws.lifecycle_hook");
  CHECK_FALSE(several.hook);
  CHECK(several.problem ==
        "the group has several autoscaling:EC2_INSTANCE_TERMINATING hooks "
        "(drain, backup); set aws.lifecycle_hook to the one runwarden answers");
  const auto wrong = choose_hook(two, terminating_transition, "drian", "aws.lifecycle_hook");
  CHECK_FALSE(wrong.hook);
  CHECK(wrong.problem ==
        "aws.lifecycle_hook names \"drian\", which is no "
        "autoscaling:EC2_INSTANCE_TERMINATING hook of this instance's group");
}

TEST_CASE("a hook ends at the earliest of its global timeout, 100 heartbeats and 48 hours",
          "[hooks]") {
  const instant now{1000h};
  const auto ends = [&](std::chrono::seconds heartbeat, std::chrono::seconds global) {
    return lifecycle_action_for(hook("drain", terminating_transition, heartbeat, global), now, 1s)
               .expires_at -
           now;
  };
  CHECK(ends(300s, 3600s) == 3599s);            // its own global timeout
  CHECK(ends(60s, 172800s) == 100 * 60s - 1s);  // 100 heartbeat timeouts
  CHECK(ends(7200s, 172800s) == 48h - 1s);      // AWS's 48 hours
  CHECK(ends(300s, 0s) == 100 * 300s - 1s);     // no global timeout given
  // The longest timeouts an answer may carry (duration_max): 100 of them are more than
  // nanoseconds hold, and the least is still 48 hours.
  CHECK(ends(315360000s, 315360000s) == 48h - 1s);
  const auto action = lifecycle_action_for(hook("drain", terminating_transition), now, 1s);
  CHECK(action.hook_name == "drain");
  CHECK(action.heartbeat_timeout == 300s);
}

// The target-tracking model against what AWS documents (target_tracking_model.hpp): each test
// feeds the policy one datapoint per metric period, as the fleet world does, and checks when
// an alarm acts and the desired capacity it asks for: proportional and quick above the target,
// late and bounded below it, nothing twice during a warm-up, no scale-in while one lasts.
#include <catch2/catch.hpp>

#include "src/sim/target_tracking_model.hpp"

using namespace runwarden;
using namespace std::chrono_literals;

namespace {

// A group of `warmed` instances of 4 slots with `busy` of their slots busy over one period.
tracked_group group_of(int warmed, std::uint64_t busy, int desired, int warming = 0) {
  return tracked_group{.slots_busy = busy,
                       .slots_total = static_cast<std::uint64_t>(warmed) * 4,
                       .desired = desired,
                       .warmed = warmed,
                       .warming = warming,
                       .min_size = 1,
                       .max_size = 12};
}

}  // namespace

TEST_CASE("the proportional capacity is the ceiling of capacity * metric / target",
          "[sim][target_tracking]") {
  CHECK(capacity_for_target(4, 100, 70) == 6);
  CHECK(capacity_for_target(4, 70, 70) == 4);
  CHECK(capacity_for_target(6, 25, 70) == 3);
  CHECK(capacity_for_target(10, 0, 70) == 0);
}

TEST_CASE("scale-out waits for three datapoints above the target, then adds in proportion",
          "[sim][target_tracking]") {
  target_tracking_state state;
  const target_tracking_policy policy;  // 70 %, 60 s periods
  // 16 of 16 slots busy: 100 %.
  CHECK_FALSE(track_target(state, policy, group_of(4, 16, 4), 60).desired);
  CHECK_FALSE(track_target(state, policy, group_of(4, 16, 4), 120).desired);
  const auto third = track_target(state, policy, group_of(4, 16, 4), 180);
  REQUIRE(third.desired);
  CHECK(*third.desired == 6);
  CHECK(state.high == alarm_state::alarm);
  CHECK(state.books.scale_outs == 1);
}

TEST_CASE("an alarm left in ALARM acts once a minute, and warming instances count as capacity",
          "[sim][target_tracking]") {
  target_tracking_state state;
  target_tracking_policy policy;
  policy.metric_period = 10s;
  for (double at : {10.0, 20.0})
    CHECK_FALSE(track_target(state, policy, group_of(4, 16, 4), at).desired);
  REQUIRE(track_target(state, policy, group_of(4, 16, 4), 30).desired == 6);
  // Two instances launched and warming: the same measurement asks for nothing more.
  for (double at : {40.0, 50.0, 60.0, 70.0, 80.0})
    CHECK_FALSE(track_target(state, policy, group_of(4, 16, 6, 2), at).desired);
  const auto repeat = track_target(state, policy, group_of(4, 16, 6, 2), 90);
  CHECK_FALSE(repeat.desired);
  CHECK(repeat.reason.find("cover it") != std::string::npos);
  // Warmed up and still full: the next action adds again, up to the group's max.
  CHECK(track_target(state, policy, group_of(6, 24, 6), 150).desired == 9);
  CHECK(track_target(state, policy, group_of(9, 36, 9), 210).desired == 12);
  CHECK_FALSE(track_target(state, policy, group_of(12, 48, 12), 270).desired);
}

TEST_CASE("scale-in waits for fifteen datapoints below 90 % of the target, and keeps it",
          "[sim][target_tracking]") {
  target_tracking_state state;
  const target_tracking_policy policy;
  // 8 instances, 6 of 32 slots busy: 18.75 %, below 63 %.
  for (int period = 1; period < 15; ++period)
    CHECK_FALSE(track_target(state, policy, group_of(8, 6, 8), period * 60.0).desired);
  const auto in = track_target(state, policy, group_of(8, 6, 8), 15 * 60.0);
  REQUIRE(in.desired);
  CHECK(*in.desired == 3);  // 8 * 18.75 / 70 = 2.1: 3 keeps the metric under 70 %
  CHECK(state.books.scale_ins == 1);
}

TEST_CASE("between 90 % of the target and the target, neither alarm acts",
          "[sim][target_tracking]") {
  target_tracking_state state;
  const target_tracking_policy policy;
  // 21 of 32 slots: 65.6 %.
  for (int period = 1; period <= 20; ++period)
    CHECK_FALSE(track_target(state, policy, group_of(8, 21, 8), period * 60.0).desired);
  CHECK(state.high == alarm_state::ok);
  CHECK(state.low == alarm_state::ok);
}

TEST_CASE("no scale-in while an instance warms up, or when scale-in is disabled",
          "[sim][target_tracking]") {
  target_tracking_state state;
  const target_tracking_policy policy;
  for (int period = 1; period <= 15; ++period)
    CHECK_FALSE(track_target(state, policy, group_of(8, 0, 9, 1), period * 60.0).desired);
  CHECK(state.books.scale_ins_blocked_by_warmup == 1);
  // Warmed up: the alarm, still in ALARM, acts on its next minute, down to min.
  CHECK(track_target(state, policy, group_of(9, 0, 9), 16 * 60.0).desired == 1);

  target_tracking_state disabled_state;
  target_tracking_policy disabled = policy;
  disabled.disable_scale_in = true;
  for (int period = 1; period <= 16; ++period)
    CHECK_FALSE(track_target(disabled_state, disabled, group_of(8, 0, 8), period * 60.0).desired);
}

TEST_CASE("a period with no slot is a missing datapoint and changes no alarm",
          "[sim][target_tracking]") {
  target_tracking_state state;
  const target_tracking_policy policy;
  CHECK_FALSE(track_target(state, policy, group_of(4, 16, 4), 60).desired);
  CHECK_FALSE(track_target(state, policy, group_of(4, 16, 4), 120).desired);
  // No instance past its warm-up: nothing to measure, nothing decided.
  CHECK_FALSE(track_target(state, policy, group_of(0, 0, 4, 4), 180).desired);
  CHECK(state.books.datapoints_missing == 1);
  CHECK(state.high == alarm_state::insufficient_data);
  CHECK_FALSE(track_target(state, policy, group_of(4, 16, 4), 240).desired);
  CHECK_FALSE(track_target(state, policy, group_of(4, 16, 4), 300).desired);
  CHECK(track_target(state, policy, group_of(4, 16, 4), 360).desired == 6);
}

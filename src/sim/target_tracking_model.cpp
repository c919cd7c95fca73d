// See target_tracking_model.hpp.
#include "src/sim/target_tracking_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// An alarm over the newest `count` datapoints: ALARM when every one breaches, OK when every
// one is present and one does not; a window short of present datapoints keeps the last state.
template <class breaching>
alarm_state evaluate(const std::deque<std::optional<double>>& datapoints, std::uint32_t count,
                     alarm_state last, const breaching& breaches) {
  if (datapoints.size() < count) return last;
  bool all_breach = true;
  for (auto it = datapoints.end() - count; it != datapoints.end(); ++it) {
    if (!*it) return last;
    all_breach = all_breach && breaches(**it);
  }
  return all_breach ? alarm_state::alarm : alarm_state::ok;
}

// Whether an alarm's action is invoked now: on entering ALARM, then once per repeat while it
// stays there (the exception CloudWatch makes for Auto Scaling actions).
bool acts(alarm_state now_state, alarm_state before, const std::optional<double>& acted_at,
          double now, const target_tracking_policy& policy) {
  if (now_state != alarm_state::alarm) return false;
  if (before != alarm_state::alarm || !acted_at) return true;
  return now - *acted_at >= static_cast<double>(policy.action_repeat.count());
}

target_tracking_decision scale_out(target_tracking_state& state,
                                   const target_tracking_policy& policy, const tracked_group& group,
                                   double metric) {
  // Warming instances are already in the desired capacity: only what the warmed ones
  // measure beyond it is added, so an alarm repeated during a warm-up adds nothing twice.
  const int wanted =
      std::min(group.max_size, capacity_for_target(group.warmed, metric, policy.target_value));
  if (wanted <= group.desired)
    return {std::nullopt, fmt::format("AlarmHigh at {:.1f}%: {} instances cover it (desired {})",
                                      metric, wanted, group.desired)};
  ++state.books.scale_outs;
  return {wanted, fmt::format("AlarmHigh at {:.1f}%: {} warmed instances need {}", metric,
                              group.warmed, wanted)};
}

target_tracking_decision scale_in(target_tracking_state& state,
                                  const target_tracking_policy& policy, const tracked_group& group,
                                  double metric) {
  if (policy.disable_scale_in) return {std::nullopt, "AlarmLow: scale-in disabled"};
  if (group.warming > 0) {
    ++state.books.scale_ins_blocked_by_warmup;
    return {std::nullopt,
            fmt::format("AlarmLow: blocked while {} instances warm up", group.warming)};
  }
  // The fewest instances that keep the metric at or below the target, never below min.
  const int wanted =
      std::max(group.min_size, capacity_for_target(group.warmed, metric, policy.target_value));
  if (wanted >= group.desired)
    return {std::nullopt,
            fmt::format("AlarmLow at {:.1f}%: {} instances still needed", metric, group.desired)};
  ++state.books.scale_ins;
  return {wanted, fmt::format("AlarmLow at {:.1f}%: {} warmed instances need only {}", metric,
                              group.warmed, wanted)};
}

}  // namespace

int capacity_for_target(int capacity, double metric, double target_value) {
  RUNWARDEN_ASSERT(target_value > 0);
  RUNWARDEN_ASSERT(capacity >= 0 && metric >= 0);
  // A hair below the next integer stays below it: 4 * 70 / 70 is 4, not 5 by rounding.
  const double exact = static_cast<double>(capacity) * metric / target_value;
  return static_cast<int>(std::ceil(exact - 1e-9));
}

target_tracking_decision track_target(target_tracking_state& state,
                                      const target_tracking_policy& policy,
                                      const tracked_group& group, double now) {
  RUNWARDEN_ASSERT(policy.scale_out_datapoints > 0 && policy.scale_in_datapoints > 0);
  RUNWARDEN_ASSERT(group.min_size <= group.max_size);
  std::optional<double> point;
  if (group.slots_total > 0)
    point = 100.0 * static_cast<double>(group.slots_busy) / static_cast<double>(group.slots_total);
  ++state.books.datapoints;
  if (!point) ++state.books.datapoints_missing;
  state.datapoints.push_back(point);
  const auto window = std::max(policy.scale_out_datapoints, policy.scale_in_datapoints);
  while (state.datapoints.size() > window) state.datapoints.pop_front();

  const auto high_before = state.high;
  const auto low_before = state.low;
  state.high = evaluate(state.datapoints, policy.scale_out_datapoints, state.high,
                        [&](double value) { return value > policy.target_value; });
  state.low = evaluate(state.datapoints, policy.scale_in_datapoints, state.low, [&](double value) {
    return value < policy.target_value * policy.scale_in_threshold_share;
  });
  if (state.high != alarm_state::alarm) state.high_acted_at.reset();
  if (state.low != alarm_state::alarm) state.low_acted_at.reset();
  // An alarm kept in ALARM over a missing datapoint has nothing new to act on.
  if (!point) return {std::nullopt, "missing datapoint: no slot past its warm-up"};
  // The two cannot both be in ALARM: AlarmHigh's newest datapoints are above the target,
  // AlarmLow's all below it. Availability first all the same.
  if (acts(state.high, high_before, state.high_acted_at, now, policy)) {
    state.high_acted_at = now;
    return scale_out(state, policy, group, *point);
  }
  if (acts(state.low, low_before, state.low_acted_at, now, policy)) {
    state.low_acted_at = now;
    return scale_in(state, policy, group, *point);
  }
  return {std::nullopt, "no alarm acts"};
}

}  // namespace runwarden

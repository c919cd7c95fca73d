#pragma once
// The scaler's decisions in words, for its log line per decision, and the closed set of
// decision kinds that /metrics counts (no reasons or numbers in labels).

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "src/scaling/scaling_machine.hpp"

namespace runwarden {

enum class scaling_decision_kind : std::uint8_t {
  scale_up,
  scale_in_self,
  protect,
  unprotect,
  hold,
};
inline constexpr std::size_t scaling_decision_kind_count = 5;
static_assert(static_cast<std::size_t>(scaling_decision_kind::hold) + 1 ==
              scaling_decision_kind_count);

std::string_view label_of(scaling_decision_kind kind);

// Failed Auto Scaling calls are counted by failure_kind_name() (autoscaling_failure.hpp).
inline constexpr std::size_t autoscaling_failure_kind_count = 6;
static_assert(static_cast<std::size_t>(autoscaling_failure_kind::failed) + 1 ==
              autoscaling_failure_kind_count);

// The kind a decision is counted under; empty for reads and notes, which decide nothing.
std::optional<scaling_decision_kind> kind_of(const scaling_decision& decision);

// "scale_up desired=4 (honor cooldown): saturated (2 of 2 jobs) for 1m: ..."
std::string to_string(const scaling_decision& decision);

}  // namespace runwarden

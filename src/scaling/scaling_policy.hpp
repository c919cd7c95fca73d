#pragma once
// How the scaler decides, as the [scaling] table configures it (config/runwarden.toml
// documents each knob with worked examples). Defaults live here only. Durations are in
// milliseconds like every other setting; the machine compares them with its own instants.

#include <chrono>
#include <cstdint>
#include <optional>

namespace runwarden {

struct scaling_policy {
  // Job slots of this runner: [scaling] capacity, else gitlab-runner's `concurrent` and
  // `limit`s. Saturated means running jobs >= capacity.
  std::uint32_t capacity = 1;
  // Saturation must last this long before the group is asked for more instances.
  std::chrono::milliseconds window{std::chrono::minutes{2}};
  // Hysteresis: a dip below capacity shorter than this (a job ending and the next one being
  // picked up) does not end a saturated spell.
  std::chrono::milliseconds dip_tolerance{std::chrono::seconds{20}};
  std::int32_t step = 1;                // instances added per scale-up
  std::optional<std::int32_t> ceiling;  // desired capacity never set above this
  // No job for this long, and the group above its min: the instance gives itself up.
  std::chrono::milliseconds idle_threshold{std::chrono::minutes{10}};
  // runwarden's own cooldown: after a scaling call, a group read that decided nothing, or
  // a group seen in motion, this instance waits this long before it reads the group again.
  std::chrono::milliseconds cooldown{std::chrono::minutes{5}};
  bool honor_cooldown = true;  // passed to SetDesiredCapacity: the group's cooldown too
  // A decision that becomes due waits a random part of this first, so that a fleet
  // saturated at the same moment does not act in the same second.
  std::chrono::milliseconds jitter{std::chrono::seconds{30}};
  // [scaling] scaler: true ("builtin") raises desired capacity when saturated and gives an
  // idle instance up; false ("group") leaves both to the group's own policies (target
  // tracking on the published job slots) and keeps only the protection below.
  bool decide_capacity = true;
  // Scale-in protection on while jobs run, off once idle for protection_release.
  bool protect_while_busy = true;
  std::chrono::milliseconds protection_release{std::chrono::minutes{1}};
  // At most one protection call per this interval; changes in between are coalesced.
  std::chrono::milliseconds protection_interval_min{std::chrono::seconds{30}};
  // After a failed call: exponential backoff from retry_initial up to retry_max.
  std::chrono::milliseconds retry_initial{std::chrono::seconds{10}};
  std::chrono::milliseconds retry_max{std::chrono::minutes{5}};
};

}  // namespace runwarden

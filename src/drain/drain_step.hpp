#pragma once
// What every cell of the drain table (drain_table.cpp) works with during one step: the
// configuration, the state, the time and the effects gathered so far, as a plain struct,
// and the few moves that keep the state and the effects in agreement (status changes,
// timers, the end). The handlers are free functions over it, grouped by concept: the runner
// (drain_runner), the triggers (drain_triggers), the signals (drain_signals), the jobs
// (drain_jobs), the unregistration, the lifecycle action and the wind-down.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

struct drain_step {
  const drain_config& config;
  drain_state& state;
  const instant now;
  std::vector<drain_effect> effects = {};
};

inline void emit(drain_step& step, drain_effect effect) {
  step.effects.push_back(std::move(effect));
}
inline void say(drain_step& step, report_level level, std::string text) {
  emit(step, report{level, std::move(text)});
}

// Ends runwarden: status gone, the notification with the callbacks, the exit.
// `end_unknown`: the runner's end was seen, not how it ended (exit_status::unknown).
void finish(drain_step& step, int exit_code, std::string reason, bool end_unknown = false);
void move_to(drain_step& step, warden_status next);
void arm(drain_step& step, std::optional<armed_timer>& slot, timer_kind kind, instant at);
// True when `id` is the timer currently armed in `slot`; disarms it.
bool take_timer(std::optional<armed_timer>& slot, timer_id id);
// The slot a timer of `kind` is kept in.
std::optional<armed_timer>& timer_slot(armed_timers& timers, timer_kind kind);
inline instant earliest(std::optional<instant> a, instant b) { return a && *a < b ? *a : b; }

std::string describe_duration(duration value);

}  // namespace runwarden

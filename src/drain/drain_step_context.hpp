#pragma once
// What every handler of one drain-machine step works with: the configuration, the state,
// the time, the effects gathered so far, and the few moves that keep the state and the
// effects in agreement (status changes, timers, signals, the end). The handlers for the
// runner and the drain (drain_machine.cpp) and for the wind-down (drain_wind_down.cpp)
// share it, so each rule is written once.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

class drain_step_context {
 public:
  drain_step_context(const drain_config& config, drain_state& state, instant now)
      : config_(config), state_(state), now_(now) {}

  std::vector<drain_effect> take_effects() { return std::move(effects_); }

 protected:
  // Signals the runner to finish its jobs; a force or deadline that already came follows.
  void send_graceful_signal();
  // The same, unless the runner started moments ago and has not shown it is ready: then the
  // signal waits for its readiness (on_runner_ready), which a runner that dies of a signal
  // it has no handler for yet would never reach.
  void send_graceful_signal_once_ready();
  // The runner answered its metrics since it started, or has run for the start grace.
  bool runner_ready() const;
  void escalate_to_forceful(const std::string& why);
  void set_deadline(instant deadline);
  // Ends runwarden: status gone, the notification with the callbacks, the exit.
  // `end_unknown`: the runner's end was seen, not how it ended (exit_status::unknown).
  void finish(int exit_code, std::string reason, bool end_unknown = false);
  void move_to(warden_status next);
  void arm(std::optional<armed_timer>& slot, timer_kind kind, instant at);
  // True when `id` is the timer currently armed in `slot`; disarms it.
  static bool take_timer(std::optional<armed_timer>& slot, timer_id id);
  static instant earliest(std::optional<instant> a, instant b) { return a && *a < b ? *a : b; }

  void say(report_level level, std::string text) { emit(report{level, std::move(text)}); }
  void emit(drain_effect effect) { effects_.push_back(std::move(effect)); }

  const drain_config& config_;
  drain_state& state_;
  const instant now_;

 private:
  std::vector<drain_effect> effects_;
};

std::string describe_duration(duration value);

}  // namespace runwarden

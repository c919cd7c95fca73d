#pragma once
// The drain machine's outputs: what to do, in the imperative (drain_machine.hpp). The
// warden's actor carries them out, in order.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

struct spawn_runner {};
struct signal_runner {
  std::int64_t pid;
  int signal_number;
  signal_purpose purpose;
};
struct arm_timer {
  timer_kind kind;
  timer_id id;
  instant at;
};
struct change_status {
  warden_status from;
  warden_status to;
};
struct exit_warden {
  int exit_code;
  std::string reason;
};
// Tell the configured webhook, and at gone the callbacks collected, how the drain goes.
struct send_notification {
  notification_kind kind;
  std::vector<shutdown_callback> callbacks;
};
struct report {
  report_level level;
  std::string text;
};
struct unregister_runner {};
struct record_lifecycle_heartbeat {
  std::string hook_name;
};
struct complete_lifecycle_action {
  std::string hook_name;
  lifecycle_result result;
};

using drain_effect = std::variant<spawn_runner, signal_runner, arm_timer, change_status,
                                  exit_warden, send_notification, report, unregister_runner,
                                  record_lifecycle_heartbeat, complete_lifecycle_action>;

}  // namespace runwarden

// See notification_values.hpp.
#include "src/webhook/notification_values.hpp"

#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

std::string what_happened(notification_kind kind, const warden_snapshot& snapshot) {
  switch (kind) {
    case notification_kind::drain_started:
      return "drain started" + (snapshot.trigger
                                    ? " (" + std::string{trigger_token(*snapshot.trigger)} + ")"
                                    : std::string{});
    case notification_kind::gone:
      return "gone" + (snapshot.exit_code ? ", exit code " + std::to_string(*snapshot.exit_code)
                                          : std::string{});
    case notification_kind::unregistration_failing:
      return "the CI server still has not confirmed the unregistration";
    case notification_kind::hook_expiring:
      return "lifecycle hook " + snapshot.lifecycle_hook.value_or("") +
             " cannot be extended again and expires before long";
    case notification_kind::restart_budget_spent:
      return "the runner keeps exiting and its restart budget is spent";
  }
  return "unknown event";
}

std::string headline_of(notification_kind kind, const warden_snapshot& snapshot,
                        const runner_identity& runner) {
  std::string who = "runner" + (runner.name.empty() ? std::string{} : " " + runner.name);
  if (!snapshot.instance_id.empty()) who += " on " + snapshot.instance_id;
  return who + ": " + what_happened(kind, snapshot);
}

void put_if(notification_values& values, std::string_view name, const std::string& text) {
  if (!text.empty()) values.emplace(name, text);
}

}  // namespace

notification_values values_of(notification_kind kind, const warden_snapshot& snapshot,
                              std::chrono::system_clock::time_point wall_now,
                              const runner_identity& runner, std::string_view version) {
  const auto wall_text = [&](instant moment) {
    return format_rfc3339_utc(wall_time_of(moment, snapshot.now, wall_now));
  };
  notification_values values{
      {"event", std::string{to_string(kind)}},
      {"is_" + std::string{to_string(kind)}, "true"},
      {"headline", headline_of(kind, snapshot, runner)},
      {"state", std::string{to_string(snapshot.status)}},
      {"phase", std::string{to_string(snapshot.phase)}},
      {"time", wall_text(snapshot.now)},
      {"runwarden_version", std::string{version}},
  };
  put_if(values, "reason", snapshot.reason);
  if (snapshot.trigger) values.emplace("trigger", trigger_token(*snapshot.trigger));
  put_if(values, "instance_id", snapshot.instance_id);
  put_if(values, "auto_scaling_group", snapshot.auto_scaling_group);
  put_if(values, "hook_name", snapshot.lifecycle_hook.value_or(""));
  put_if(values, "runner_name", runner.name);
  put_if(values, "runner_kind", runner.kind);
  if (snapshot.jobs_running) values.emplace("jobs_left", std::to_string(*snapshot.jobs_running));
  if (snapshot.drain_deadline) values.emplace("deadline", wall_text(*snapshot.drain_deadline));
  if (snapshot.exit_code) values.emplace("exit_code", std::to_string(*snapshot.exit_code));
  return values;
}

}  // namespace runwarden

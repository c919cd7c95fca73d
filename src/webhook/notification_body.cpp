// See notification_body.hpp. nlohmann-json escapes every string (the reason comes from an
// API caller), and invalid UTF-8 is replaced rather than allowed to throw.
#include "src/webhook/notification_body.hpp"

#include <nlohmann/json.hpp>

#include "src/runner/signal_names.hpp"
#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

using json = nlohmann::json;

json runner_exit_of(const std::optional<exit_status>& status) {
  if (!status) return nullptr;
  // An end nobody could read has no code and no signal: "unknown" says so.
  if (status->unknown)
    return {
        {"code", nullptr}, {"signal", nullptr}, {"unknown", true}, {"text", to_string(*status)}};
  return {
      {"code", status->as_exit_code()},
      {"signal", status->signaled ? json(signal_name(status->value)) : json(nullptr)},
      {"text", to_string(*status)},
  };
}

}  // namespace

std::string notification_body(notification_kind kind, const warden_snapshot& snapshot,
                              std::chrono::system_clock::time_point wall_now,
                              std::string_view version) {
  const auto wall_text = [&](instant moment) {
    return format_rfc3339_utc(wall_time_of(moment, snapshot.now, wall_now));
  };
  const auto optional_time = [&](const std::optional<instant>& moment) {
    return moment ? json(wall_text(*moment)) : json(nullptr);
  };
  json body = {
      {"event", to_string(kind)},
      {"state", to_string(snapshot.status)},
      {"phase", to_string(snapshot.phase)},
      {"reason", snapshot.reason},
      {"trigger", snapshot.trigger ? json(trigger_token(*snapshot.trigger)) : json(nullptr)},
      {"runner_exit", runner_exit_of(snapshot.last_exit)},
      {"exit_code", snapshot.exit_code ? json(*snapshot.exit_code) : json(nullptr)},
      {"exit_reason", snapshot.exit_code ? json(snapshot.exit_reason) : json(nullptr)},
      {"runner_restarts", snapshot.restarts_total},
      {"time", wall_text(snapshot.now)},
      {"status_since", wall_text(snapshot.status_since)},
      {"drain_started_at", optional_time(snapshot.drain_started_at)},
      {"drain_deadline", optional_time(snapshot.drain_deadline)},
      {"runwarden_version", version},
  };
  // Where the runner runs, once the metadata service (and the hooks actor, for the group)
  // said: left out before, as a runner outside a cloud never has them.
  if (!snapshot.instance_id.empty()) body["instance_id"] = snapshot.instance_id;
  if (!snapshot.auto_scaling_group.empty())
    body["auto_scaling_group"] = snapshot.auto_scaling_group;
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace runwarden

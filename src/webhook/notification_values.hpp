#pragma once
// The values a webhook body template can use, one flat set per notification, computed from
// the warden's snapshot. A value that is not known yet (no cloud, no hook, no exit) is left
// out, so that a template can test it with a Mustache section ({{#hook_name}}...{{/hook_name}})
// or its inverse. The names are a public contract, documented in config/runwarden.toml: add
// names, never rename them.
//
//   event               drain_started, gone, unregistration_failing, hook_expiring,
//                       restart_budget_spent; and one flag per event: is_<event>
//   headline            a sentence for people: "runner ci-7 on i-0abc: drain started (sigterm)"
//   reason, trigger     why the drain began, and what began it (trigger_token)
//   instance_id, auto_scaling_group, hook_name
//   runner_name, runner_kind
//   jobs_left           the runner's running jobs, while it runs and says
//   deadline            the drain deadline, RFC 3339 UTC
//   exit_code           runwarden's exit code, once gone
//   state, phase, time, runwarden_version

#include <chrono>
#include <map>
#include <string>
#include <string_view>

#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

// What the notifier knows of the runner beside the snapshot: fixed for one run.
struct runner_identity {
  std::string name;  // empty: unknown
  std::string kind;  // "gitlab" or "generic"
};

// Field name to text; booleans (the is_<event> flags) are "true" and only present when true.
using notification_values = std::map<std::string, std::string, std::less<>>;

// `wall_now` is the wall-clock time matching snapshot.now. Pure.
notification_values values_of(notification_kind kind, const warden_snapshot& snapshot,
                              std::chrono::system_clock::time_point wall_now,
                              const runner_identity& runner, std::string_view version);

// Every kind of notification, in their enum's order.
inline constexpr notification_kind all_notification_kinds[] = {
    notification_kind::drain_started, notification_kind::gone,
    notification_kind::unregistration_failing, notification_kind::hook_expiring,
    notification_kind::restart_budget_spent};

}  // namespace runwarden

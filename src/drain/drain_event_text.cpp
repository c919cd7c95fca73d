// See drain_event_text.hpp.
#include "src/drain/drain_event_text.hpp"

#include <fmt/format.h>

#include "src/runner/signal_names.hpp"

namespace runwarden {

namespace {

struct event_text {
  std::string operator()(const warden_started&) const { return "warden_started"; }
  std::string operator()(const runner_spawned& e) const {
    return fmt::format("runner_spawned pid={}", e.pid);
  }
  std::string operator()(const runner_spawn_failed& e) const {
    return fmt::format("runner_spawn_failed errno={} {}", e.error_number, e.message);
  }
  std::string operator()(const runner_exited& e) const {
    if (e.retire_by)
      return fmt::format("runner_exited pid={} {} retire_by={} reason=\"{}\"", e.pid,
                         to_string(e.status), trigger_token(*e.retire_by), e.retire_reason);
    return fmt::format("runner_exited pid={} {}", e.pid, to_string(e.status));
  }
  std::string operator()(const shutdown_requested& e) const {
    std::string text = fmt::format("shutdown_requested {}", trigger_token(e.source));
    if (e.deadline) text += fmt::format(" deadline={}ns", e.deadline->count());
    if (e.callback) text += " callback=" + e.callback->url;
    if (!e.reason.empty()) text += " reason=" + e.reason;
    return text;
  }
  std::string operator()(const forceful_shutdown_requested& e) const {
    std::string text = fmt::format("forceful_shutdown_requested {}", trigger_token(e.source));
    if (!e.reason.empty()) text += " reason=" + e.reason;
    return text;
  }
  std::string operator()(const reload_requested&) const { return "reload_requested"; }
  std::string operator()(const timer_fired& e) const {
    return fmt::format("timer_fired {} id={}", to_string(e.kind), e.id);
  }
  std::string operator()(const runner_load_observed& e) const {
    auto text = e.jobs_running ? fmt::format("runner_load_observed jobs={}", *e.jobs_running)
                               : std::string{"runner_load_observed jobs=unknown"};
    return e.runner_state.empty() ? text : text + " state=" + e.runner_state;
  }
  std::string operator()(const unregistration_finished& e) const {
    return fmt::format("unregistration_finished confirmed={} {}", e.confirmed, e.detail);
  }
  std::string operator()(const lifecycle_action_pending& e) const {
    // The retention mark only when set, so that older replays read the same text.
    return fmt::format("lifecycle_action_pending hook={} heartbeat={}ns expires={}ns{}{}",
                       e.action.hook_name, e.action.heartbeat_timeout.count(),
                       e.action.expires_at.count(),
                       e.action.wind_down_reserve
                           ? fmt::format(" reserve={}ns", e.action.wind_down_reserve->count())
                           : std::string{},
                       e.action.retained_when_abandoned ? " retained_when_abandoned" : "");
  }
  std::string operator()(const lifecycle_action_completed& e) const {
    return fmt::format("lifecycle_action_completed confirmed={}{} {}", e.confirmed,
                       e.instance_retained ? " retained" : "", e.detail);
  }
  std::string operator()(const lifecycle_lookup_ended& e) const {
    return fmt::format("lifecycle_lookup_ended {}", e.detail);
  }
  std::string operator()(const runner_signal_delivered& e) const {
    return fmt::format("runner_signal_delivered {} pid={}", signal_name(e.signal_number), e.pid);
  }
  std::string operator()(const lifecycle_client_unavailable&) const {
    return "lifecycle_client_unavailable";
  }
  std::string operator()(const job_reported& e) const {
    return fmt::format("job_reported {} id={}", to_string(e.kind), e.job_id);
  }
};

}  // namespace

std::string to_string(const drain_event& event) { return std::visit(event_text{}, event); }

}  // namespace runwarden

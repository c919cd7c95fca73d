// See lifecycle_watch.hpp. 401 never reaches this file: the poller answers it by fetching a
// new token and asking again, and only a second 401 arrives here, as a failure.
#include "src/aws/imds/lifecycle_watch.hpp"

#include <algorithm>
#include <array>

#include "src/util/log_quote.hpp"
#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

constexpr int http_ok = 200;
constexpr int http_not_found = 404;

}  // namespace

std::string_view to_string(rebalance_action action) {
  switch (action) {
    case rebalance_action::ignore:
      return "ignore";
    case rebalance_action::log:
      return "log";
    case rebalance_action::drain:
      return "drain";
  }
  return "unknown";
}

std::optional<rebalance_action> parse_rebalance_action(std::string_view text) {
  for (const auto action :
       {rebalance_action::ignore, rebalance_action::log, rebalance_action::drain})
    if (to_string(action) == text) return action;
  return std::nullopt;
}

lifecycle_watch::lifecycle_watch(lifecycle_watch_policy policy) : policy_(std::move(policy)) {}

void lifecycle_watch::fail(page_health& health, std::string kind, std::string problem,
                           watch_outcome& outcome) {
  if (kind == health.problem_kind) return;
  outcome.reports.push_back({report_level::warning, std::move(problem)});
  health.problem_kind = std::move(kind);
}

lifecycle_watch::page_answer lifecycle_watch::classify(page_health& health, std::string_view page,
                                                       const imds_answer& answer,
                                                       watch_outcome& outcome) {
  if (!answer.status_code) {
    fail(health, "no answer", std::string{page} + ": no answer: " + answer.transport_error,
         outcome);
    return page_answer::failed;
  }
  if (*answer.status_code == http_ok) return page_answer::present;
  if (*answer.status_code == http_not_found) return page_answer::absent;
  const auto status = "HTTP " + std::to_string(*answer.status_code);
  fail(health, status, std::string{page} + ": unexpected " + status, outcome);
  return page_answer::failed;
}

void lifecycle_watch::recover(page_health& health, std::string_view page, watch_outcome& outcome) {
  if (health.problem_kind.empty()) return;
  outcome.reports.push_back({report_level::info, std::string{page} + ": answers again"});
  health.problem_kind.clear();
}

bool lifecycle_watch::drains(target_lifecycle_state state) const {
  const auto& states = policy_.drain_states;
  return std::find(states.begin(), states.end(), state) != states.end();
}

watch_outcome lifecycle_watch::on_lifecycle_state(const imds_answer& answer) {
  watch_outcome outcome;
  const auto read = classify(lifecycle_health_, imds_lifecycle_state_path, answer, outcome);
  if (read == page_answer::failed) return outcome;
  recover(lifecycle_health_, imds_lifecycle_state_path, outcome);
  if (read == page_answer::absent) return outcome;
  const auto state = parse_target_lifecycle_state(answer.body);
  if (!state) {
    auto& warned = unknown_states_warned_;
    if (warned.size() < unknown_states_warned_max &&
        std::find(warned.begin(), warned.end(), answer.body) == warned.end()) {
      warned.push_back(answer.body);
      outcome.reports.push_back({report_level::warning, "unknown target lifecycle state " +
                                                            log_quote(answer.body) +
                                                            "; it does not start a drain"});
    }
    return outcome;
  }
  if (state != last_state_) {
    outcome.reports.push_back({report_level::info, "Auto Scaling target lifecycle state is " +
                                                       std::string{to_string(*state)}});
    last_state_ = state;
  }
  if (lifecycle_latched_ || !drains(*state)) return outcome;
  lifecycle_latched_ = true;
  outcome.trigger =
      lifecycle_trigger{trigger_source::cloud_lifecycle, std::nullopt,
                        "Auto Scaling target lifecycle state is " + std::string{to_string(*state)}};
  return outcome;
}

watch_outcome lifecycle_watch::on_spot_action(const imds_answer& answer) {
  watch_outcome outcome;
  const auto read = classify(spot_health_, imds_spot_action_path, answer, outcome);
  if (read == page_answer::failed) return outcome;
  if (read == page_answer::absent || spot_latched_) {
    recover(spot_health_, imds_spot_action_path, outcome);
    return outcome;
  }
  auto parsed = parse_spot_instance_action(answer.body);
  if (!parsed.notice) {
    fail(spot_health_, parsed.error, parsed.error + "; no drain until it reads", outcome);
    return outcome;
  }
  recover(spot_health_, imds_spot_action_path, outcome);
  spot_latched_ = true;
  const auto& notice = *parsed.notice;
  outcome.trigger =
      lifecycle_trigger{trigger_source::spot_interruption, notice.time - policy_.spot_safety_margin,
                        "spot instance-action " + log_quote(notice.action) + " at " +
                            format_rfc3339_utc(notice.time)};
  return outcome;
}

watch_outcome lifecycle_watch::on_rebalance(const imds_answer& answer) {
  watch_outcome outcome;
  const auto read = classify(rebalance_health_, imds_rebalance_path, answer, outcome);
  if (read == page_answer::failed) return outcome;
  if (read == page_answer::absent || rebalance_latched_ ||
      policy_.rebalance == rebalance_action::ignore) {
    recover(rebalance_health_, imds_rebalance_path, outcome);
    return outcome;
  }
  const auto parsed = parse_rebalance_recommendation(answer.body);
  if (!parsed.notice_time) {
    fail(rebalance_health_, parsed.error, parsed.error, outcome);
    return outcome;
  }
  recover(rebalance_health_, imds_rebalance_path, outcome);
  rebalance_latched_ = true;
  const auto reason =
      "EC2 rebalance recommendation noticed at " + format_rfc3339_utc(*parsed.notice_time);
  if (policy_.rebalance == rebalance_action::drain) {
    outcome.trigger =
        lifecycle_trigger{trigger_source::rebalance_recommendation, std::nullopt, reason};
  } else {
    outcome.reports.push_back({report_level::warning, reason + " (rebalance = \"log\")"});
  }
  return outcome;
}

}  // namespace runwarden

// See azure_event_watch.hpp.
#include "src/azure/azure_event_watch.hpp"

#include <algorithm>

#include "src/util/assert.hpp"
#include "src/util/gmt_date.hpp"
#include "src/util/log_quote.hpp"

namespace runwarden {

namespace {

constexpr int http_ok = 200;

std::string describe(const azure_event& event) {
  return "Azure " + log_quote(event.type_text) + " event " + log_quote(event.event_id) +
         (event.not_before ? " not before " + format_gmt_date(*event.not_before)
                           : std::string{" (started)"});
}

}  // namespace

std::string_view to_string(azure_optional_action action) {
  return action == azure_optional_action::drain ? "drain" : "log";
}

std::optional<azure_optional_action> parse_azure_optional_action(std::string_view text) {
  for (const auto action : {azure_optional_action::log, azure_optional_action::drain})
    if (to_string(action) == text) return action;
  return std::nullopt;
}

azure_event_watch::azure_event_watch(azure_event_policy policy, std::string compute_name)
    : policy_(policy), compute_name_(std::move(compute_name)) {
  RUNWARDEN_ASSERT(!compute_name_.empty());
}

azure_watch_outcome azure_event_watch::on_document(const imds_answer& answer, wall_time now) {
  azure_watch_outcome outcome;
  std::string kind;
  azure_events_parse parsed;
  if (!answer.status_code) {
    kind = "no answer: " + answer.transport_error;
  } else if (*answer.status_code != http_ok) {
    kind = "unexpected HTTP " + std::to_string(*answer.status_code);
  } else {
    parsed = parse_azure_scheduled_events(answer.body);
    kind = parsed.error;
  }
  if (!kind.empty()) {
    // libcurl's texts carry elapsed milliseconds: "no answer" alone decides a change.
    const auto problem = kind.starts_with("no answer") ? std::string{"no answer"} : kind;
    if (problem != problem_kind_)
      outcome.reports.push_back({report_level::warning, "scheduled events: " + kind});
    problem_kind_ = problem;
    return outcome;
  }
  if (!problem_kind_.empty())
    outcome.reports.push_back({report_level::info, "scheduled events: answer again"});
  problem_kind_.clear();
  if (parsed.document->incarnation == incarnation_) return outcome;
  incarnation_ = parsed.document->incarnation;
  for (const auto& event : parsed.document->events) consider(event, now, outcome);
  return outcome;
}

void azure_event_watch::consider(const azure_event& event, wall_time now,
                                 azure_watch_outcome& outcome) {
  if (std::find(known_.begin(), known_.end(), event.event_id) != known_.end()) return;
  remember(event.event_id);
  if (!names_this_machine(event)) {
    outcome.reports.push_back({report_level::debug, describe(event) + " is for other machines"});
    return;
  }
  std::optional<trigger_source> source;
  switch (event.type) {
    case azure_event_type::preempt:
      source = trigger_source::azure_preempt;
      break;
    case azure_event_type::terminate:
      source = trigger_source::azure_terminate;
      break;
    case azure_event_type::reboot:
      if (policy_.reboot == azure_optional_action::drain) source = trigger_source::azure_reboot;
      break;
    case azure_event_type::redeploy:
      if (policy_.redeploy == azure_optional_action::drain) source = trigger_source::azure_redeploy;
      break;
    case azure_event_type::freeze:
    case azure_event_type::other:
      break;
  }
  if (!source) {
    outcome.reports.push_back(
        {report_level::warning, describe(event) + " for this machine: only logged"});
    return;
  }
  const auto at = event.not_before.value_or(now);
  outcome.triggers.push_back(lifecycle_trigger{*source, at - policy_.margin, describe(event)});
  outcome.approvals.push_back(azure_approval{event.event_id, at});
}

bool azure_event_watch::names_this_machine(const azure_event& event) const {
  return std::find(event.resources.begin(), event.resources.end(), compute_name_) !=
         event.resources.end();
}

void azure_event_watch::remember(const std::string& event_id) {
  if (known_.size() == azure_events_remembered_max) known_.erase(known_.begin());
  known_.push_back(event_id);
}

}  // namespace runwarden

// See scheduled_event_watch.hpp. EC2 lists active events on the scheduled page and moves
// canceled and completed ones to the history page, so an event that vanishes from a page that
// read well counts as canceled too: a drain_ahead waiting for it must not start later.
#include "src/aws/imds/scheduled_event_watch.hpp"

#include <algorithm>

#include "src/util/assert.hpp"
#include "src/util/gmt_date.hpp"

namespace runwarden {

namespace {

constexpr int http_ok = 200;
constexpr int http_not_found = 404;

std::string describe(const scheduled_event& event) {
  return "EC2 scheduled event " + event.code + " (" + event.event_id + ") not before " +
         format_gmt_date(event.not_before);
}

}  // namespace

std::string_view to_string(scheduled_event_action action) {
  switch (action) {
    case scheduled_event_action::drain:
      return "drain";
    case scheduled_event_action::drain_ahead:
      return "drain_ahead";
    case scheduled_event_action::log:
      return "log";
  }
  return "unknown";
}

std::optional<scheduled_event_action> parse_scheduled_event_action(std::string_view text) {
  for (const auto action : {scheduled_event_action::drain, scheduled_event_action::drain_ahead,
                            scheduled_event_action::log})
    if (to_string(action) == text) return action;
  return std::nullopt;
}

scheduled_event_watch::scheduled_event_watch(scheduled_event_policy policy)
    : policy_(std::move(policy)) {
  RUNWARDEN_ASSERT(policy_.margin.count() >= 0 && policy_.lead_time.count() >= 0);
}

scheduled_watch_outcome scheduled_event_watch::on_page(const imds_answer& answer, wall_time now) {
  scheduled_watch_outcome outcome;
  std::string kind;
  std::string problem;
  std::vector<scheduled_event> listed;
  if (!answer.status_code) {
    kind = "no answer";
    problem = "no answer: " + answer.transport_error;
  } else if (*answer.status_code == http_ok) {
    auto parsed = parse_scheduled_events(answer.body);
    if (parsed.events) listed = std::move(*parsed.events);
    kind = problem = parsed.error;
  } else if (*answer.status_code != http_not_found) {  // 404: nothing scheduled
    kind = "HTTP " + std::to_string(*answer.status_code);
    problem = "unexpected " + kind;
  }
  if (!kind.empty()) {
    if (kind != problem_kind_)
      outcome.reports.push_back(
          {report_level::warning, std::string{imds_scheduled_events_path} + ": " + problem});
    problem_kind_ = std::move(kind);
  } else {
    if (!problem_kind_.empty())
      outcome.reports.push_back(
          {report_level::info, std::string{imds_scheduled_events_path} + ": answers again"});
    problem_kind_.clear();
    for (const auto& event : listed) consider(event, outcome);
    // No structured binding here: clang 14 (the fuzz build) refuses to capture one.
    for (auto& entry : known_) {
      const auto& id = entry.first;
      auto& known = entry.second;
      const bool still_listed = std::any_of(listed.begin(), listed.end(),
                                            [&](const auto& e) { return e.event_id == id; });
      if (still_listed || known.step != progress::noticed) continue;
      known.step = progress::dropped;
      outcome.reports.push_back(
          {report_level::info, describe(known.event) + " is no longer scheduled: dropped"});
    }
  }
  start_due_drains(now, outcome);
  forget_settled_beyond_limit();
  return outcome;
}

scheduled_watch_outcome scheduled_event_watch::due(wall_time now) {
  scheduled_watch_outcome outcome;
  start_due_drains(now, outcome);
  return outcome;
}

void scheduled_event_watch::consider(const scheduled_event& event,
                                     scheduled_watch_outcome& outcome) {
  const bool active = event.state == scheduled_event_state::active;
  auto found = known_.find(event.event_id);
  if (found == known_.end()) {
    const auto action = action_for(event.code);
    auto& known = known_[event.event_id] = {event, action, progress::noticed};
    order_.push_back(event.event_id);
    if (!active) {
      known.step = progress::dropped;
      outcome.reports.push_back(
          {report_level::info,
           describe(event) + " is " + std::string{to_string(event.state)} + ": nothing to do"});
      return;
    }
    std::string how;
    switch (action) {
      case scheduled_event_action::drain:
        how = "drains now";
        break;
      case scheduled_event_action::drain_ahead:
        how = "drains from " + format_gmt_date(event.not_before - policy_.lead_time);
        break;
      case scheduled_event_action::log:
        how = "only logged (action \"log\")";
        break;
    }
    outcome.reports.push_back({report_level::warning, describe(event) + ": " + how});
    return;
  }
  auto& known = found->second;
  const bool rescheduled = known.event.not_before != event.not_before;
  known.event = event;  // EC2 lets an owner reschedule an event: the latest time counts
  if (!active && known.step == progress::noticed) {
    known.step = progress::dropped;
    outcome.reports.push_back({report_level::info, describe(event) + " is " +
                                                       std::string{to_string(event.state)} +
                                                       " before its drain started: dropped"});
  } else if (!active && known.step == progress::drained) {
    known.step = progress::dropped;  // said once; the drain itself goes on
    outcome.reports.push_back(
        {report_level::warning, describe(event) + " is " + std::string{to_string(event.state)} +
                                    ", but its drain has started and is not undone"});
  } else if (rescheduled && known.step == progress::noticed) {
    outcome.reports.push_back({report_level::info, describe(event) + ": rescheduled"});
  }
}

void scheduled_event_watch::start_due_drains(wall_time now, scheduled_watch_outcome& outcome) {
  outcome.next_due.reset();
  for (auto& [id, known] : known_) {
    if (known.step != progress::noticed || known.action == scheduled_event_action::log) continue;
    const auto start = known.action == scheduled_event_action::drain
                           ? now
                           : known.event.not_before - policy_.lead_time;
    if (start > now) {
      if (!outcome.next_due || start < *outcome.next_due) outcome.next_due = start;
      continue;
    }
    known.step = progress::drained;
    outcome.triggers.push_back(lifecycle_trigger{trigger_source::ec2_scheduled_maintenance,
                                                 deadline_of(known.event, now),
                                                 describe(known.event)});
  }
}

// EC2 performs a scheduled event at some moment of its window, from NotBefore up to NotAfter
// ("Scheduled events for your instances", EC2 User Guide: an event's "not before" and "not
// after" times bound when it occurs; instance-stop and retirement have no end). Before
// NotBefore the machine is safe: the deadline is NotBefore less the margin. Once that has
// passed, the machine may go at any moment of the window, and stopping the jobs now saves
// none of them: the deadline moves to NotAfter less the margin, the window's own end, and
// without a NotAfter there is none (the jobs run until they finish or the machine goes).
std::optional<wall_time> scheduled_event_watch::deadline_of(const scheduled_event& event,
                                                            wall_time now) const {
  if (event.not_before - policy_.margin > now) return event.not_before - policy_.margin;
  if (event.not_after && *event.not_after - policy_.margin > now)
    return *event.not_after - policy_.margin;
  return std::nullopt;
}

scheduled_event_action scheduled_event_watch::action_for(std::string_view code) const {
  const auto found = policy_.actions.find(code);
  return found == policy_.actions.end() ? policy_.other_codes : found->second;
}

// Noticed events are never forgotten (one may still drain); only settled ones, oldest first.
void scheduled_event_watch::forget_settled_beyond_limit() {
  for (auto it = order_.begin();
       known_.size() > scheduled_events_remembered_max && it != order_.end();) {
    const auto found = known_.find(*it);
    if (found != known_.end() && found->second.step == progress::noticed) {
      ++it;
      continue;
    }
    if (found != known_.end()) known_.erase(found);
    it = order_.erase(it);
  }
}

}  // namespace runwarden

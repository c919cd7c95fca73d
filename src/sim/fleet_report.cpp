// See fleet_report.hpp.
#include "src/sim/fleet_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "src/sim/fleet_checker.hpp"

namespace runwarden {

namespace {

double percentile(std::vector<double> values, double share) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(share * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

std::string counts(const std::map<std::string, std::uint64_t>& by_name) {
  if (by_name.empty()) return "none";
  std::string text;
  for (const auto& [name, count] : by_name)
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, name);
  return text;
}

}  // namespace

fleet_report make_report(const fleet_world& world, std::uint64_t seed,
                         const std::vector<std::pair<std::string, bool>>& drains) {
  fleet_report report;
  report.scenario = world.scenario().name;
  report.seed = seed;
  std::vector<double> waits;
  for (const auto& job : world.jobs()) {
    ++report.jobs_arrived;
    if (job.started) waits.push_back(*job.started - job.arrived);
    if (!job.started)
      ++report.jobs_queued_at_end;
    else if (!job.ended)
      ++report.jobs_running_at_end;
    else if (job.killed_by.empty())
      ++report.jobs_finished;
  }
  report.jobs_killed = world.books().jobs_killed;
  report.queue_wait_p50 = percentile(waits, 0.50);
  report.queue_wait_p90 = percentile(waits, 0.90);
  report.queue_wait_p99 = percentile(waits, 0.99);
  const auto end = static_cast<double>(world.scenario().duration.count());
  for (const auto& instance : world.instances()) {
    const auto& spans = instance.lane.lifecycle;
    const double gone_at = instance.gone && !spans.empty() ? spans.back().from : end;
    report.instance_hours += (gone_at - instance.launched) / 3600;
  }
  report.instances_launched = world.books().launches;
  for (const auto& [trigger, gone] : drains) {
    if (trigger.empty()) continue;
    ++report.drains_by_trigger[trigger];
    report.drains_gone += gone ? 1 : 0;
  }
  report.lifecycle_completed = world.books().lifecycle_completed;
  report.lifecycle_timed_out = world.books().lifecycle_timed_out;
  for (const auto& instance : world.instances())
    for (const auto* action : {&instance.launch_action, &instance.terminate_action})
      if (*action) report.lifecycle_completions_repeated += (*action)->completions_refused;
  report.spot_interruptions = world.books().spot_interruptions;
  report.wind_down_at_reclaim = world.books().wind_down_at_reclaim;
  report.api_calls = world.books().api_calls;
  report.retries = world.books().retries;
  report.faults = world.books().faults;
  if (world.scenario().scaler == group_scaler::target_tracking)
    report.target_tracking = world.target_tracking().books;
  report.violations = world.checker().violations();
  return report;
}

std::string report_text(const fleet_report& r) {
  std::string text = fmt::format(
      "scenario {} seed {}\n"
      "jobs: {} arrived, {} finished, {} running and {} queued at the end, killed: {}\n"
      "queue wait: p50 {:.0f}s, p90 {:.0f}s, p99 {:.0f}s\n"
      "instances: {} launched, {:.2f} instance-hours, {} spot interruptions ({} taken back "
      "while faults kept their wind-down retrying)\n"
      "drains: {} ({} gone)\n"
      "lifecycle actions: {} completed, {} timed out, {} completions repeated after the end\n"
      "API calls: {}\nretries after a lost or failed call: {}\nfaults injected: {}\n",
      r.scenario, r.seed, r.jobs_arrived, r.jobs_finished, r.jobs_running_at_end,
      r.jobs_queued_at_end, counts(r.jobs_killed), r.queue_wait_p50, r.queue_wait_p90,
      r.queue_wait_p99, r.instances_launched, r.instance_hours, r.spot_interruptions,
      r.wind_down_at_reclaim, counts(r.drains_by_trigger), r.drains_gone, r.lifecycle_completed,
      r.lifecycle_timed_out, r.lifecycle_completions_repeated, counts(r.api_calls),
      counts(r.retries), counts(r.faults));
  if (const auto& t = r.target_tracking)
    text += fmt::format(
        "target tracking: {} scale-outs, {} scale-ins ({} blocked by warm-up), {} datapoints "
        "({} missing)\n",
        t->scale_outs, t->scale_ins, t->scale_ins_blocked_by_warmup, t->datapoints,
        t->datapoints_missing);
  if (r.violations.empty()) return text + "invariants: all held\n";
  for (const auto& v : r.violations)
    text += fmt::format("VIOLATION at {:.0f}s: {}: {}\n", v.at, v.invariant, v.detail);
  return text;
}

namespace {

nlohmann::ordered_json report_document(const fleet_report& r) {
  nlohmann::ordered_json violations = nlohmann::ordered_json::array();
  for (const auto& v : r.violations)
    violations.push_back({{"at", v.at}, {"invariant", v.invariant}, {"detail", v.detail}});
  nlohmann::ordered_json json{
      {"scenario", r.scenario},
      {"seed", r.seed},
      {"jobs",
       {{"arrived", r.jobs_arrived},
        {"finished", r.jobs_finished},
        {"running_at_end", r.jobs_running_at_end},
        {"queued_at_end", r.jobs_queued_at_end},
        {"killed", r.jobs_killed}}},
      {"queue_wait_seconds",
       {{"p50", r.queue_wait_p50}, {"p90", r.queue_wait_p90}, {"p99", r.queue_wait_p99}}},
      {"instances",
       {{"launched", r.instances_launched},
        {"instance_hours", r.instance_hours},
        {"spot_interruptions", r.spot_interruptions},
        {"wind_down_at_reclaim", r.wind_down_at_reclaim}}},
      {"drains", {{"by_trigger", r.drains_by_trigger}, {"gone", r.drains_gone}}},
      {"lifecycle_actions",
       {{"completed", r.lifecycle_completed},
        {"timed_out", r.lifecycle_timed_out},
        {"completions_repeated", r.lifecycle_completions_repeated}}},
      {"api_calls", r.api_calls},
      {"retries", r.retries},
      {"faults", r.faults},
      {"violations", violations},
  };
  if (const auto& t = r.target_tracking) {
    // Before the verdicts, beside the other counts.
    auto verdicts = json["violations"];
    json.erase("violations");
    json["target_tracking"] = {{"scale_outs", t->scale_outs},
                               {"scale_ins", t->scale_ins},
                               {"scale_ins_blocked_by_warmup", t->scale_ins_blocked_by_warmup},
                               {"datapoints", t->datapoints},
                               {"datapoints_missing", t->datapoints_missing}};
    json["violations"] = std::move(verdicts);
  }
  return json;
}

}  // namespace

std::string report_json(const fleet_report& report) {
  return report_document(report).dump(2) + "\n";
}

std::string report_json_line(const fleet_report& report) {
  return report_document(report).dump() + "\n";
}

}  // namespace runwarden

// See gcp_notice_watch.hpp.
#include "src/gcp/gcp_notice_watch.hpp"

#include <algorithm>

#include "src/util/log_quote.hpp"
#include "src/util/rfc3339_time.hpp"

namespace runwarden {

gcp_notice_watch::gcp_notice_watch(gcp_notice_policy policy) : policy_(policy) {}

void gcp_notice_watch::warn_unknown(std::string_view key, std::string_view value,
                                    watch_outcome& outcome) {
  auto& warned = unknown_values_warned_;
  const std::string entry = std::string{key} + "=" + std::string{value};
  if (warned.size() >= gcp_unknown_values_warned_max ||
      std::find(warned.begin(), warned.end(), entry) != warned.end())
    return;
  warned.push_back(entry);
  outcome.reports.push_back({report_level::warning, "unknown " + std::string{key} + " value " +
                                                        log_quote(value) +
                                                        "; it does not start a drain"});
}

watch_outcome gcp_notice_watch::on_preempted(std::string_view value, wall_time now) {
  watch_outcome outcome;
  if (value == "FALSE") return outcome;
  if (value != "TRUE") {
    warn_unknown(gcp_preempted_key, value, outcome);
    return outcome;
  }
  if (preemption_latched_) return outcome;
  preemption_latched_ = true;
  outcome.trigger =
      lifecycle_trigger{trigger_source::gcp_preemption, now + policy_.preemption_deadline,
                        "Google Cloud preempted this instance (instance/preempted TRUE at " +
                            format_rfc3339_utc(now) + ")"};
  return outcome;
}

watch_outcome gcp_notice_watch::on_maintenance_event(std::string_view value, wall_time now) {
  watch_outcome outcome;
  const bool known = value == "NONE" || value == "MIGRATE_ON_HOST_MAINTENANCE" ||
                     value == "TERMINATE_ON_HOST_MAINTENANCE";
  if (!known) {
    warn_unknown(gcp_maintenance_event_key, value, outcome);
    return outcome;
  }
  const std::string previous = std::exchange(last_maintenance_event_, std::string{value});
  if (value == "NONE") {
    if (previous != "NONE")
      outcome.reports.push_back({report_level::info, "host maintenance " + previous + " is over"});
  } else if (value == "MIGRATE_ON_HOST_MAINTENANCE") {
    outcome.reports.push_back({report_level::warning,
                               "host maintenance ahead: Compute Engine live-migrates this "
                               "instance; the runner keeps running"});
  } else if (!termination_latched_) {
    termination_latched_ = true;
    outcome.trigger = lifecycle_trigger{
        trigger_source::gcp_host_maintenance, now + policy_.host_maintenance_deadline,
        "Google Cloud host maintenance terminates this instance "
        "(instance/maintenance-event TERMINATE_ON_HOST_MAINTENANCE at " +
            format_rfc3339_utc(now) + ")"};
  }
  return outcome;
}

}  // namespace runwarden

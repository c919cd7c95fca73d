// See metrics_registry.hpp. The drain machine's effects say what was done (a signal sent, a
// status changed); what happened to the runner (it exited, it came up) shows only in the
// snapshots, so each step's snapshot is compared with the one before: a runner pid that
// disappears with a last exit set is an exit, and a status reaching gone while a spawn is
// still unanswered is a spawn failure.
#include "src/telemetry/metrics_registry.hpp"

#include <utility>

#include "src/aws/instance_retention.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

double as_value(std::uint64_t count) { return static_cast<double>(count); }

template <typename enumeration>
std::size_t index_of(enumeration value) {
  return static_cast<std::size_t>(value);
}

metric_family make_family(std::string name, std::string help, metric_type type) {
  return metric_family{std::move(name), std::move(help), type, {}, {}};
}

// One series per value of a closed enumeration, each with one label.
template <typename enumeration, std::size_t count, typename namer>
void add_per_value(metric_family& family, const char* label, namer name_of,
                   const std::array<double, count>& values) {
  for (std::size_t index = 0; index < count; ++index) {
    const std::string_view value_name = name_of(static_cast<enumeration>(index));
    family.samples.push_back({{{label, std::string{value_name}}}, values[index]});
  }
}

template <std::size_t count>
std::array<double, count> as_values(const std::array<std::uint64_t, count>& counts) {
  std::array<double, count> result{};
  for (std::size_t index = 0; index < count; ++index) result[index] = as_value(counts[index]);
  return result;
}

template <std::size_t count>
std::array<double, count> one_hot(std::size_t hot) {
  std::array<double, count> result{};
  result[hot] = 1;
  return result;
}

metric_family build_info_family(std::string_view version) {
  auto family =
      make_family("runwarden_build_info", "Always 1; the version label names the runwarden build.",
                  metric_type::gauge);
  family.samples.push_back({{{"version", std::string{version}}}, 1});
  return family;
}

metric_family start_time_family(double seconds) {
  auto family = make_family("process_start_time_seconds",
                            "Start time of the runwarden process since the Unix epoch, in "
                            "seconds.",
                            metric_type::gauge);
  family.samples.push_back({{}, seconds});
  return family;
}

void add_journal_families(std::vector<metric_family>& result, const journal_health& health) {
  auto healthy = make_family("runwarden_journal_healthy",
                             "1 while every journal entry is written; 0 while the disk refuses "
                             "them (full, read-only) or after writing stopped. The drain goes "
                             "on either way; a restart would continue from the last written.",
                             metric_type::gauge);
  healthy.samples.push_back({{}, health.healthy ? 1.0 : 0.0});
  result.push_back(std::move(healthy));
  auto failures = make_family("runwarden_journal_write_failures_total",
                              "Journal writes the disk refused.", metric_type::counter);
  failures.samples.push_back({{}, as_value(health.write_failures_total)});
  result.push_back(std::move(failures));
  auto unrecorded =
      make_family("runwarden_journal_unrecorded_entries",
                  "Journal entries held in memory until the disk takes them.", metric_type::gauge);
  unrecorded.samples.push_back({{}, as_value(health.unrecorded_entries)});
  result.push_back(std::move(unrecorded));
}

metric_family exits_family(const std::array<std::uint64_t, exit_label_count>& exits) {
  auto family = make_family("runwarden_runner_exits_total",
                            "Runner exits, by exit code (0, 1 or other) or by the signal that "
                            "ended the runner (a short list, or other).",
                            metric_type::counter);
  for (std::size_t index = 0; index < exit_label_count; ++index) {
    const auto& label = exit_labels()[index];
    family.samples.push_back(
        {{{"kind", std::string{label.kind}}, {"value", std::string{label.value}}},
         as_value(exits[index])});
  }
  return family;
}

metric_family webhook_family(
    const std::array<std::array<std::uint64_t, 2>, notification_kind_count>& deliveries) {
  auto family = make_family("runwarden_webhook_deliveries_total",
                            "Webhook and shutdown callback deliveries that ended, by event and "
                            "outcome (delivered, or failed once out of attempts).",
                            metric_type::counter);
  for (std::size_t kind = 0; kind < notification_kind_count; ++kind) {
    const std::string event{to_string(static_cast<notification_kind>(kind))};
    family.samples.push_back(
        {{{"event", event}, {"outcome", "delivered"}}, as_value(deliveries[kind][1])});
    family.samples.push_back(
        {{{"event", event}, {"outcome", "failed"}}, as_value(deliveries[kind][0])});
  }
  return family;
}

metric_family drain_duration_family(const histogram_value& durations) {
  auto family = make_family("runwarden_drain_duration_seconds",
                            "Time from the start of a drain until the runner was gone, in "
                            "seconds.",
                            metric_type::histogram);
  family.histograms.push_back({{}, durations});
  return family;
}

void add_scaling_families(
    std::vector<metric_family>& result,
    const std::array<std::uint64_t, scaling_decision_kind_count>& decisions,
    double last_decision_seconds,
    const std::array<std::uint64_t, autoscaling_failure_kind_count>& failures) {
  auto decided = make_family("runwarden_scaling_decisions_total",
                             "Scaling decisions made from the runner's own load, by kind "
                             "(scale_up, scale_in_self, protect, unprotect, hold).",
                             metric_type::counter);
  add_per_value<scaling_decision_kind>(
      decided, "kind", [](scaling_decision_kind k) { return label_of(k); }, as_values(decisions));
  result.push_back(std::move(decided));
  auto last = make_family("runwarden_scaling_last_decision_timestamp_seconds",
                          "When the scaler last decided, since the Unix epoch, in seconds; 0 "
                          "before its first decision.",
                          metric_type::gauge);
  last.samples.push_back({{}, last_decision_seconds});
  result.push_back(std::move(last));
  auto failed = make_family("runwarden_scaling_call_failures_total",
                            "Auto Scaling calls of the scaler that failed, by what the failure "
                            "means (retry_with_backoff, retry_later, access_denied, ...).",
                            metric_type::counter);
  add_per_value<autoscaling_failure_kind>(
      failed, "kind", [](autoscaling_failure_kind k) { return failure_kind_name(k); },
      as_values(failures));
  result.push_back(std::move(failed));
}

metric_family pod_patch_family(const std::array<std::uint64_t, pod_patch_outcome_count>& patches) {
  auto family = make_family("runwarden_kubernetes_pod_patches_total",
                            "Merge patches of the pod's own annotations, by outcome (applied, "
                            "conflict, throttled, failed, refused).",
                            metric_type::counter);
  add_per_value<pod_patch_outcome>(
      family, "outcome", [](pod_patch_outcome o) { return to_string(o); }, as_values(patches));
  return family;
}

double epoch_seconds(std::chrono::system_clock::time_point at) {
  return std::chrono::duration<double>(at.time_since_epoch()).count();
}

metric_family gauge_of(std::string name, std::string help, double value) {
  auto family = make_family(std::move(name), std::move(help), metric_type::gauge);
  family.samples.push_back({{}, value});
  return family;
}

template <typename enumeration, std::size_t count, typename namer>
metric_family counter_per_value(std::string name, std::string help, const char* label,
                                namer name_of, const std::array<std::uint64_t, count>& counts) {
  auto family = make_family(std::move(name), std::move(help), metric_type::counter);
  add_per_value<enumeration>(family, label, name_of, as_values(counts));
  return family;
}

// What an operator watches while a runner drains, and what the drain's helpers report.
template <typename counts>
void add_drain_watch_families(std::vector<metric_family>& result, const counts& copy) {
  result.push_back(gauge_of("runwarden_runner_jobs_running",
                            "Jobs the runner says it is running (its own metrics); 0 while "
                            "unknown, see runwarden_runner_jobs_known.",
                            copy.jobs_running.value_or(0)));
  result.push_back(gauge_of("runwarden_runner_jobs_known",
                            "1 when the runner's metrics tell its running jobs, else 0.",
                            copy.jobs_running ? 1 : 0));
  result.push_back(gauge_of("runwarden_drain_deadline_timestamp_seconds",
                            "The drain's deadline since the Unix epoch, in seconds; 0 when the "
                            "drain has none or no drain runs.",
                            copy.drain_deadline_seconds));
  result.push_back(gauge_of("runwarden_lifecycle_hook_expiry_timestamp_seconds",
                            "When the lifecycle hook the drain answers expires (its global "
                            "timeout) since the Unix epoch, in seconds; 0 when none waits.",
                            copy.hook_expiry_seconds));
  result.push_back(gauge_of("runwarden_instance_retained",
                            "1 while the Auto Scaling group retains this instance past an "
                            "abandoned terminate hook (Terminating:Retained), billed until "
                            "terminated; else 0.",
                            copy.instance_retained ? 1 : 0));
  result.push_back(counter_per_value<notification_kind>(
      "runwarden_notifications_total",
      "Notifications the drain decided to send, by event (the failures among them call for a "
      "person).",
      "event", [](notification_kind k) { return to_string(k); }, copy.notifications));
  result.push_back(counter_per_value<heartbeat_outcome>(
      "runwarden_lifecycle_heartbeats_total",
      "Lifecycle hook heartbeats, by outcome (recorded, or failed after their retries).", "outcome",
      [](heartbeat_outcome o) { return label_of(o); }, copy.heartbeats));
  result.push_back(counter_per_value<completion_result>(
      "runwarden_lifecycle_completions_total",
      "Lifecycle action completions, by result (completed, already_done, refused).", "result",
      [](completion_result r) { return label_of(r); }, copy.completions));
  result.push_back(counter_per_value<outcome_kind>(
      "runwarden_unregistration_attempts_total",
      "Attempts to unregister the runner from its CI server, by outcome.", "outcome",
      [](outcome_kind o) { return to_string(o); }, copy.unregistration_attempts));
  result.push_back(gauge_of("runwarden_metadata_last_success_timestamp_seconds",
                            "When the instance metadata service last answered a poll, since "
                            "the Unix epoch, in seconds; 0 before its first answer.",
                            copy.metadata_last_answer_seconds));
  result.push_back(counter_per_value<publish_outcome>(
      "runwarden_cloudwatch_points_total",
      "Job slot points meant for CloudWatch ([scaling] publish), by outcome (sent, or dropped: "
      "throttled, rejected, failed, overlapped).",
      "outcome", [](publish_outcome o) { return label_of(o); }, copy.published_points));
}

}  // namespace

metrics_registry::metrics_registry(std::string version,
                                   std::chrono::system_clock::time_point process_started_at,
                                   wall_clock clock)
    : version_(std::move(version)),
      process_start_time_seconds_(epoch_seconds(process_started_at)),
      wall_clock_(std::move(clock)) {
  counts_.drain_duration =
      make_histogram({drain_duration_bounds_seconds.begin(), drain_duration_bounds_seconds.end()});
}

void metrics_registry::observe(const drain_effect& effect, const warden_snapshot& snapshot) {
  const std::lock_guard lock{mutex_};
  if (last_version_ != snapshot.version) {
    absorb_snapshot(snapshot);
    last_version_ = snapshot.version;
  }
  count_effect(effect, snapshot);
}

void metrics_registry::observe_snapshot(const warden_snapshot& snapshot) {
  const std::lock_guard lock{mutex_};
  if (last_version_ == snapshot.version) return;
  absorb_snapshot(snapshot);
  last_version_ = snapshot.version;
}

void metrics_registry::count_webhook_delivery(notification_kind kind, bool delivered) {
  const std::lock_guard lock{mutex_};
  ++counts_.webhook_deliveries[index_of(kind)][delivered ? 1 : 0];
}

void metrics_registry::count_error(error_kind kind) {
  const std::lock_guard lock{mutex_};
  ++counts_.errors[index_of(kind)];
}

void metrics_registry::observe_journal(const journal_health& health) {
  const std::lock_guard lock{mutex_};
  RUNWARDEN_ASSERT(health.write_failures_total >= counts_.journal.write_failures_total);
  counts_.journal = health;
}

void metrics_registry::count_scaling_decision(scaling_decision_kind kind,
                                              std::chrono::system_clock::time_point at) {
  const std::lock_guard lock{mutex_};
  ++counts_.scaling_decisions[index_of(kind)];
  counts_.scaling_last_decision_seconds =
      std::chrono::duration<double>(at.time_since_epoch()).count();
}

void metrics_registry::count_scaling_call_failure(autoscaling_failure_kind kind) {
  const std::lock_guard lock{mutex_};
  ++counts_.scaling_call_failures[index_of(kind)];
}

void metrics_registry::count_pod_patch(pod_patch_outcome outcome) {
  const std::lock_guard lock{mutex_};
  ++counts_.pod_patches[static_cast<std::size_t>(outcome)];
}

void metrics_registry::count_lifecycle_heartbeat(heartbeat_outcome outcome) {
  const std::lock_guard lock{mutex_};
  ++counts_.heartbeats[index_of(outcome)];
}

void metrics_registry::count_lifecycle_completion(completion_result result) {
  const std::lock_guard lock{mutex_};
  ++counts_.completions[index_of(result)];
}

void metrics_registry::count_unregistration_attempt(outcome_kind outcome) {
  const std::lock_guard lock{mutex_};
  ++counts_.unregistration_attempts[index_of(outcome)];
}

void metrics_registry::mark_metadata_answered(std::chrono::system_clock::time_point at) {
  const std::lock_guard lock{mutex_};
  counts_.metadata_last_answer_seconds = epoch_seconds(at);
}

void metrics_registry::count_published_points(publish_outcome outcome, std::uint64_t points) {
  const std::lock_guard lock{mutex_};
  counts_.published_points[index_of(outcome)] += points;
}

readiness metrics_registry::current_readiness() const {
  const std::lock_guard lock{mutex_};
  const bool ready = counts_.status == warden_status::running && counts_.phase == drain_phase::none;
  return readiness{ready, counts_.status, counts_.phase};
}

void metrics_registry::absorb_snapshot(const warden_snapshot& snapshot) {
  if (runner_alive_ && !snapshot.runner_pid && snapshot.last_exit)
    ++counts_.exits[exit_label_index(*snapshot.last_exit)];
  runner_alive_ = snapshot.runner_pid.has_value();
  if (runner_alive_) spawn_pending_ = false;
  RUNWARDEN_ASSERT(snapshot.restarts_total >= counts_.restarts_total);
  counts_.restarts_total = snapshot.restarts_total;
  counts_.status = snapshot.status;
  counts_.phase = snapshot.phase;
  counts_.jobs_running = snapshot.jobs_running;
  const auto wall_now = wall_clock_();
  const auto wall_seconds = [&](const std::optional<instant>& moment) {
    if (!moment) return 0.0;
    return epoch_seconds(wall_now) + std::chrono::duration<double>(*moment - snapshot.now).count();
  };
  const bool draining = snapshot.status == warden_status::shutting_down;
  counts_.drain_deadline_seconds = draining ? wall_seconds(snapshot.drain_deadline) : 0.0;
  counts_.hook_expiry_seconds = draining ? wall_seconds(snapshot.lifecycle_expires_at) : 0.0;
  counts_.instance_retained = is_retained_state(snapshot.auto_scaling_lifecycle_state);
}

void metrics_registry::count_effect(const drain_effect& effect, const warden_snapshot& snapshot) {
  if (std::holds_alternative<spawn_runner>(effect)) {
    spawn_pending_ = true;
  } else if (const auto* signal = std::get_if<signal_runner>(&effect)) {
    ++counts_.signals_sent[index_of(signal->purpose)];
  } else if (const auto* said = std::get_if<report>(&effect)) {
    if (said->level == report_level::error) ++counts_.errors[index_of(error_kind::drain)];
  } else if (const auto* change = std::get_if<change_status>(&effect)) {
    count_status_change(*change, snapshot);
  } else if (const auto* notification = std::get_if<send_notification>(&effect)) {
    ++counts_.notifications[index_of(notification->kind)];
  }
  // arm_timer and exit_warden change no metric.
}

void metrics_registry::count_status_change(const change_status& change,
                                           const warden_snapshot& snapshot) {
  if (change.to == warden_status::shutting_down) {
    RUNWARDEN_ASSERT(snapshot.trigger.has_value());
    if (snapshot.trigger) ++counts_.drains[index_of(*snapshot.trigger)];
  } else if (change.to == warden_status::gone) {
    if (snapshot.drain_started_at) {
      const auto took = snapshot.status_since - *snapshot.drain_started_at;
      RUNWARDEN_ASSERT(took >= duration::zero());
      runwarden::observe(counts_.drain_duration, std::chrono::duration<double>(took).count());
    }
    if (spawn_pending_) ++counts_.errors[index_of(error_kind::runner_spawn)];
    spawn_pending_ = false;
  }
}

std::vector<metric_family> metrics_registry::collect() const {
  counts copy;
  {
    const std::lock_guard lock{mutex_};
    copy = counts_;
  }
  std::vector<metric_family> result;
  result.push_back(build_info_family(version_));
  result.push_back(start_time_family(process_start_time_seconds_));
  auto state = make_family("runwarden_state",
                           "1 for the status runwarden is in (starting, running, "
                           "shutting_down, gone), 0 for the others.",
                           metric_type::gauge);
  add_per_value<warden_status>(
      state, "state", [](warden_status s) { return to_string(s); },
      one_hot<warden_status_count>(index_of(copy.status)));
  result.push_back(std::move(state));
  auto phase = make_family("runwarden_drain_phase",
                           "1 for the phase of the drain in progress (none outside a drain, "
                           "done once gone), 0 for the others.",
                           metric_type::gauge);
  add_per_value<drain_phase>(
      phase, "phase", [](drain_phase p) { return to_string(p); },
      one_hot<drain_phase_count>(index_of(copy.phase)));
  result.push_back(std::move(phase));
  auto drains = make_family("runwarden_drains_total", "Drains begun, by what triggered them.",
                            metric_type::counter);
  add_per_value<trigger_source>(
      drains, "trigger", [](trigger_source t) { return label_of(t); }, as_values(copy.drains));
  result.push_back(std::move(drains));
  result.push_back(drain_duration_family(copy.drain_duration));
  auto restarts =
      make_family("runwarden_runner_restarts_total",
                  "Restarts of the runner after it ended outside a drain.", metric_type::counter);
  restarts.samples.push_back({{}, as_value(copy.restarts_total)});
  result.push_back(std::move(restarts));
  result.push_back(exits_family(copy.exits));
  auto signals = make_family("runwarden_runner_signals_sent_total",
                             "Signals sent to the runner, by purpose.", metric_type::counter);
  add_per_value<signal_purpose>(
      signals, "purpose", [](signal_purpose p) { return to_string(p); },
      as_values(copy.signals_sent));
  result.push_back(std::move(signals));
  result.push_back(webhook_family(copy.webhook_deliveries));
  auto errors =
      make_family("runwarden_errors_total", "Errors that have no metric of their own, by kind.",
                  metric_type::counter);
  add_per_value<error_kind>(
      errors, "kind", [](error_kind k) { return label_of(k); }, as_values(copy.errors));
  result.push_back(std::move(errors));
  add_scaling_families(result, copy.scaling_decisions, copy.scaling_last_decision_seconds,
                       copy.scaling_call_failures);
  add_journal_families(result, copy.journal);
  add_drain_watch_families(result, copy);
  result.push_back(pod_patch_family(copy.pod_patches));
  return result;
}

}  // namespace runwarden

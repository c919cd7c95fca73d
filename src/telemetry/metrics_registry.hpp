#pragma once
// runwarden's own metrics, fed by the warden's effect observer and by webhook delivery
// outcomes, read by /metrics and /readyz. The warden calls in on a CAF worker, webhooks on
// theirs and scrapes on the HTTP thread, so one mutex guards everything; each call holds it
// for a few counter updates or one copy. Every series exists from the start at zero and
// every label value comes from metric_labels.hpp, so the series count is fixed.

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/drain/drain_machine.hpp"
#include "src/drain/warden_snapshot.hpp"
#include "src/journal/journal_health.hpp"
#include "src/kubernetes/pod_annotation_machine.hpp"
#include "src/scaling/scaling_decision_text.hpp"
#include "src/telemetry/metric_family.hpp"
#include "src/telemetry/metric_labels.hpp"

namespace runwarden {

// Drain durations from one second to a day: long CI jobs drain for hours.
inline constexpr std::array<double, 16> drain_duration_bounds_seconds{
    1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 28800, 43200, 86400};

// What /readyz answers from: ready while running and not draining.
struct readiness {
  bool ready = false;
  warden_status status = warden_status::starting;
  drain_phase phase = drain_phase::none;
};

class metrics_registry {
 public:
  using wall_clock = std::function<std::chrono::system_clock::time_point()>;

  // `clock` reads the wall time a snapshot is absorbed at (deadlines become timestamps).
  metrics_registry(
      std::string version, std::chrono::system_clock::time_point process_started_at,
      wall_clock clock = [] { return std::chrono::system_clock::now(); });

  // The warden's observer: every effect, with the snapshot taken after the step that made
  // it. The effects of one step share a snapshot version; the snapshot is read once per step.
  void observe(const drain_effect& effect, const warden_snapshot& snapshot);
  // Every snapshot the warden publishes, so that changes without an effect (the runner's
  // job count) show too; one already seen through observe() is not absorbed twice.
  void observe_snapshot(const warden_snapshot& snapshot);

  // One webhook (or shutdown callback) delivery that ended: delivered, or out of attempts.
  void count_webhook_delivery(notification_kind kind, bool delivered);

  void count_error(error_kind kind);

  // The journal's writes after each append: whether every entry is on disk (journal_health).
  void observe_journal(const journal_health& health);

  // The scaler's decisions, with the wall-clock time each was made, and its
  // failed Auto Scaling calls by what the failure means.
  void count_scaling_decision(scaling_decision_kind kind, std::chrono::system_clock::time_point at);
  void count_scaling_call_failure(autoscaling_failure_kind kind);
  // The pod annotator's merge patches, by how each ended.
  void count_pod_patch(pod_patch_outcome outcome);

  // The lifecycle hooks actor's heartbeats and completions, the unregistrar's attempts, and
  // the lifecycle watcher's successful metadata polls (with their wall-clock time).
  void count_lifecycle_heartbeat(heartbeat_outcome outcome);
  void count_lifecycle_completion(completion_result result);
  void count_unregistration_attempt(outcome_kind outcome);
  void mark_metadata_answered(std::chrono::system_clock::time_point at);
  // Points (datums) meant for CloudWatch, by what became of them (metric_labels.hpp).
  void count_published_points(publish_outcome outcome, std::uint64_t points);

  readiness current_readiness() const;

  // Every family, in a fixed order, with every series.
  std::vector<metric_family> collect() const;

 private:
  struct counts {
    warden_status status = warden_status::starting;
    drain_phase phase = drain_phase::none;
    std::uint64_t restarts_total = 0;
    std::array<std::uint64_t, trigger_source_count> drains{};
    std::array<std::uint64_t, exit_label_count> exits{};
    std::array<std::uint64_t, signal_purpose_count> signals_sent{};
    // Indexed by notification kind, then 0 for failed and 1 for delivered.
    std::array<std::array<std::uint64_t, 2>, notification_kind_count> webhook_deliveries{};
    std::array<std::uint64_t, error_kind_count> errors{};
    std::array<std::uint64_t, scaling_decision_kind_count> scaling_decisions{};
    double scaling_last_decision_seconds = 0;  // 0: no decision yet
    std::array<std::uint64_t, autoscaling_failure_kind_count> scaling_call_failures{};
    std::array<std::uint64_t, pod_patch_outcome_count> pod_patches{};
    histogram_value drain_duration;
    journal_health journal;
    // What an operator watches during a drain (from the snapshots, wall-clock seconds; 0:
    // none), and what the drain's helpers report.
    std::optional<std::uint32_t> jobs_running;
    double drain_deadline_seconds = 0;
    double hook_expiry_seconds = 0;
    bool instance_retained = false;  // the group keeps this instance (Terminating:Retained)
    std::array<std::uint64_t, notification_kind_count> notifications{};
    std::array<std::uint64_t, heartbeat_outcome_count> heartbeats{};
    std::array<std::uint64_t, completion_result_count> completions{};
    std::array<std::uint64_t, unregister_outcome_count> unregistration_attempts{};
    double metadata_last_answer_seconds = 0;
    std::array<std::uint64_t, publish_outcome_count> published_points{};
  };

  void absorb_snapshot(const warden_snapshot& snapshot);
  void count_effect(const drain_effect& effect, const warden_snapshot& snapshot);
  void count_status_change(const change_status& change, const warden_snapshot& snapshot);

  const std::string version_;
  const double process_start_time_seconds_;
  const wall_clock wall_clock_;
  mutable std::mutex mutex_;
  counts counts_;
  // What the previous step left, to tell what this one changed.
  std::optional<std::uint64_t> last_version_;
  bool runner_alive_ = false;   // the last snapshot had a runner pid
  bool spawn_pending_ = false;  // a spawn_runner went out and no pid has come back yet
};

}  // namespace runwarden

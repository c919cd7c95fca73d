#pragma once
// What runwarden is doing, as the control API, `runwarden ctl`, /metrics and webhooks show
// it: one value derived from the drain machine's state, so every view tells the same story.
// Times are instants of the machine's clock; the edge that prints them converts to wall time.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

// Progress inside shutting_down.
enum class drain_phase : std::uint8_t {
  none,                // not shutting down
  waiting_for_runner,  // the runner is still being spawned; it is signalled once up
  draining,            // graceful signal sent, jobs finishing
  forcing,             // forceful signal sent
  killing,             // SIGKILL sent
  unregistering,       // waiting for the CI server to forget the runner
  completing,          // completing the cloud's lifecycle action
  done,                // gone
};

std::string_view to_string(drain_phase phase);

struct warden_snapshot {
  std::uint64_t version = 0;  // grows with every change the warden makes
  instant now{0};
  warden_status status = warden_status::starting;
  instant status_since{0};
  drain_phase phase = drain_phase::none;
  std::optional<std::int64_t> runner_pid;
  std::uint64_t restarts_total = 0;
  std::optional<exit_status> last_exit;
  std::optional<instant> drain_started_at;
  std::optional<instant> drain_deadline;
  std::optional<trigger_source> trigger;
  std::string reason;
  // Known once the metrics answer or the runner reports its jobs (job_ledger.hpp).
  std::optional<std::uint32_t> jobs_running;
  std::vector<std::string> reported_jobs;  // the jobs the runner reported and not ended
  std::string runner_state;  // the runner's own view of its state, when it reports one
  std::optional<std::string> lifecycle_hook;    // the hook this drain completes, if any
  std::optional<instant> next_heartbeat_at;     // the hook's next heartbeat, while one is due
  std::optional<instant> lifecycle_expires_at;  // the hook's global timeout, until completed
  std::string unregistration;                   // per runner, once unregistration finished
  std::optional<int> exit_code;                 // once gone
  bool exit_unknown = false;  // once gone: the runner's end was seen, not how it ended
  std::string exit_reason;
  std::string spawn_failure;  // why the runner could not be started, when it could not
  // Where the runner runs, as the cloud names it; empty until the warden hears it (the
  // metadata service's identity document, the Auto Scaling group of this instance).
  std::string instance_id = {};
  std::string auto_scaling_group = {};
  // This instance's LifecycleState in its group as last read (InService, Terminating:Wait,
  // Terminating:Retained, ...); empty until the lifecycle hooks actor read one.
  std::string auto_scaling_lifecycle_state = {};
  // The unregistration's attempts so far, and when the next is due while the last failed.
  std::uint32_t unregistration_attempts = 0;
  std::optional<instant> next_unregistration_at = std::nullopt;
};

warden_snapshot snapshot_of(const drain_state& state, instant now, std::uint64_t version);

// True when two snapshots differ in more than their version and time of taking.
bool same_state(const warden_snapshot& left, const warden_snapshot& right);

}  // namespace runwarden

#pragma once
// The retirement machine: decides when this machine's purpose has ended. It hears what the
// runner did (came up, took jobs, went down and how), the disk's fill and its own timers,
// each with the current time, and answers with at most one decision for the machine's whole
// life: retire the instance (or mark it unhealthy, past the restart budget), with the cause.
// It does no I/O and reads no clock, like the drain machine beside it.
//
//   watching ──job done, crash mid-job, budget spent, recycle bound, idle bound──▶ decided
//   (decided is final: no event undoes it, and the warden never starts a runner after it)
//
// How a runner's end is classified with after_exit = retire:
//   it took a job (reported, or counted by its metrics) and ended normally → job done;
//   a job was running when it ended abnormally → crash mid-job: said as an error, then retire;
//   it took no job → started again while the restart budget allows (the drain does that),
//   past the budget → on_give_up; a restart policy that keeps it down → retire.
// With after_exit = restart only the budget matters, and then only when on_give_up is not
// `exit`. The decision reaches the drain machine as a drain with the retirement trigger
// (the journal keeps it, so a restarted warden recovers it and never spawns again).
//
// Jobs counted: per runner, the larger of the starts it reported and the rises of its
// metrics' running count (neither source alone sees all: metrics miss a job shorter than a
// scrape, a runner without hooks reports none). Recycling after N jobs drains at the N-th
// job's start, so that the runner finishes it and takes no N+1-th.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "src/drain/drain_vocabulary.hpp"
#include "src/retirement/retirement_policy.hpp"

namespace runwarden {

enum class retirement_cause : std::uint8_t {
  job_done,              // a one-job runner finished its job
  crashed_mid_job,       // a one-job runner died with a job running
  ended_without_job,     // a one-job runner ended before a job and its policy keeps it down
  restart_budget_spent,  // on_give_up unhealthy or retire
  recycle_jobs,          // recycle.after_jobs reached
  recycle_uptime,        // recycle.after_uptime passed
  recycle_disk,          // the builds' disk passed its threshold
  idle,                  // a one-job runner took no job within idle_retire_after
};

// How the instance ends once the runner is gone and unregistered.
enum class instance_end : std::uint8_t {
  terminate,       // the cloud's own route: the group's terminate call, or retire_command
  mark_unhealthy,  // SetInstanceHealth Unhealthy: the group replaces it
};

enum class retirement_timer : std::uint8_t { idle, uptime };

// What the restart policy and budget say about the runner that just ended (the drain
// machine's rule, asked before the end is handed to it).
enum class restart_verdict : std::uint8_t { restart, policy_keeps_down, budget_spent };

// Events, in the past tense.
// Runwarden (re)started watching this machine: the uptime bound is armed to count from the
// machine's boot when that is known (the host reads it; here it is only an input), else from
// the first start this state has seen (a journal folded in before keeps its own). An idle
// bound a folded journal left running is armed again for the time it was due.
struct retirement_watch_began {
  std::optional<instant> machine_booted_at;
};
struct runner_came_up {};   // a runner (re)started: it has taken no job yet
struct job_began {};        // the runner reported a new job
struct running_jobs_seen {  // its metrics' running count
  std::uint32_t running = 0;
};
struct runner_went_down {  // it ended outside a drain
  exit_status status;
  std::optional<std::uint32_t> jobs_running;  // as last known before the end
  restart_verdict verdict = restart_verdict::restart;
};
struct disk_usage_seen {
  std::uint32_t used_percent = 0;
};
struct retirement_timer_fired {
  retirement_timer kind = retirement_timer::idle;
};

using retirement_event =
    std::variant<retirement_watch_began, runner_came_up, job_began, running_jobs_seen,
                 runner_went_down, disk_usage_seen, retirement_timer_fired>;

// Effects, in the imperative.
struct retire_instance {
  retirement_cause cause;
  instance_end end;
  std::string reason;
};
struct arm_retirement_timer {
  retirement_timer kind;
  instant at;
};
struct report_retirement {
  report_level level;
  std::string text;
};

using retirement_effect = std::variant<retire_instance, arm_retirement_timer, report_retirement>;

struct retirement_state {
  std::optional<retirement_cause> decided;
  std::uint64_t jobs_before_this_runner = 0;  // over the instance's earlier runners
  std::uint64_t reported_starts = 0;          // this runner's
  std::uint64_t counted_rises = 0;            // this runner's
  std::uint32_t last_running = 0;
  std::optional<instant> idle_due;    // while a one-job runner waits for its job
  std::optional<instant> uptime_due;  // once watching, while recycle.after_uptime is set
};

class retirement_machine {
 public:
  explicit retirement_machine(retirement_policy policy);
  std::vector<retirement_effect> step(const retirement_event& event, instant now);
  const retirement_state& state() const { return state_; }
  const retirement_policy& policy() const { return policy_; }
  // Jobs this instance's runners have taken, as counted above.
  std::uint64_t jobs_taken() const;

 private:
  class stepper;
  retirement_policy policy_;
  retirement_state state_;
};

std::string_view to_string(retirement_cause cause);
// A stable word for metric labels and webhook bodies ("job_done", "recycle_jobs").
std::string_view retirement_cause_token(retirement_cause cause);
std::string_view to_string(instance_end end);
// Whether a retirement by this cause shrinks the group's desired capacity when nothing is
// configured: the demand a one-job runner served is consumed (job done, idle, ended without a
// job), while a recycled or failed instance is capacity still wanted, to be replaced.
bool cause_consumes_capacity(retirement_cause cause);

}  // namespace runwarden

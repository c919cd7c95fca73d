#pragma once
// What the machine's purpose is, as the [runner] and [retire] keys say it: whether a runner
// that ended is started again or the instance retires, what happens past the restart budget,
// and when a long-lived instance is recycled. Defaults are today's behaviour: restart, and
// exit past the budget; no recycling.
//
// Retiring an instance means: drain its runner if it still runs, unregister it, flush the
// logs, and end the instance by the cloud's own route (actors/instance_end says
// which). Marking it unhealthy is the same wind-down, ended by SetInstanceHealth instead, so
// that the group replaces the instance by its own rules.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden {

// What a runner's end means, outside a drain.
enum class after_exit_action : std::uint8_t {
  restart,  // start it again (the [restart] policy and budget decide)
  retire,   // a one-job runner: a job done ends the machine's purpose
};

// Past the restart budget.
enum class give_up_choice : std::uint8_t {
  exit,       // runwarden ends (exit code of the runner), as before: the service manager acts
  unhealthy,  // wind down, then SetInstanceHealth Unhealthy: the group replaces the instance
  retire,     // wind down, then end the instance as a retirement does
};

// Recycling a long-lived instance: each bound is off when unset.
struct recycle_bounds {
  std::optional<std::uint32_t> after_jobs;  // jobs started over the instance's life
  // Since the machine booted (its kernel's uptime, CLOCK_BOOTTIME), across restarts of
  // runwarden; where the boot is unknown, since runwarden's first start in its journal.
  std::optional<std::chrono::milliseconds> after_uptime;
  // The builds' disk: past used_percent_max percent used on disk_path, the instance recycles.
  std::string disk_path;
  std::optional<std::uint32_t> disk_used_percent_max;
  friend bool operator==(const recycle_bounds&, const recycle_bounds&) = default;
};

// How a retired instance ends, once decided (the cause picks terminate or mark_unhealthy).
struct instance_end_settings {
  // Outside AWS (or with no group to call): this argv, run directly and never through a
  // shell, e.g. ["systemctl", "poweroff"]. Empty: no command; runwarden only exits.
  std::vector<std::string> command;
  // AWS: ShouldDecrementDesiredCapacity of TerminateInstanceInAutoScalingGroup. Unset: by
  // the cause (cause_consumes_capacity): a one-job runner's done job shrinks the group, a
  // recycled instance is replaced.
  std::optional<bool> decrement_desired_capacity;
  friend bool operator==(const instance_end_settings&, const instance_end_settings&) = default;
};

struct retirement_policy {
  instance_end_settings end;
  after_exit_action after_exit = after_exit_action::restart;
  give_up_choice on_give_up = give_up_choice::exit;
  recycle_bounds recycle;
  // A one-job runner (after_exit retire) that has taken no job this long after it started
  // retires: a job cancelled before pickup must not leave the machine idle for good.
  std::optional<std::chrono::milliseconds> idle_retire_after;
  friend bool operator==(const retirement_policy&, const retirement_policy&) = default;
};

// Whether the policy can retire the instance at all: the defaults never do.
inline bool may_retire(const retirement_policy& policy) {
  return policy.after_exit == after_exit_action::retire ||
         policy.on_give_up != give_up_choice::exit || policy.recycle.after_jobs ||
         policy.recycle.after_uptime || policy.recycle.disk_used_percent_max;
}

std::string_view to_string(after_exit_action action);
std::string_view to_string(give_up_choice choice);

}  // namespace runwarden

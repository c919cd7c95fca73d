#pragma once
// The scaling machine: decides, from this runner's own load, when to ask the Auto Scaling
// group for more instances, when to give this instance back, and when to protect it from
// the group's own scale-in. It does no I/O, reads no clock and draws no random number of
// its own (the jitter comes from the seed it is given), so a sequence of events always
// gives the same decisions.
//
//   load:   unknown ──jobs known──▶ idle (0 jobs) ◀──▶ busy ◀──▶ saturated (jobs >= capacity)
//           a dip below capacity shorter than dip_tolerance keeps a saturated spell going
//
//   scaling slot (one call at a time):
//     quiet ──saturated for window / idle for idle_threshold, cooldown over──▶ due
//     due ──jitter passed──▶ reading (read_group) ──group_read──▶ scaling call or hold
//     scaling call ──call_finished──▶ quiet (cooldown from now); scale-in success ──▶ done
//
//   protection slot (one call at a time, at most one per protection_interval_min):
//     off ──first job──▶ on ──idle for protection_release──▶ off; the call carries the
//     state wanted when it is sent, so flips inside the interval coalesce into one call
//
//   drain begun (the warden left running) or scale-in of self done: decides nothing more.
//
// Failed calls back off (retry_initial doubling up to retry_max); AccessDenied waits
// retry_max, since only a changed IAM policy helps. Every decision carries its reason.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

// drain_machine.hpp comes before the Auto Scaling headers: its complete_lifecycle_action
// effect and the request builder of the same name only coexist in that order.
#include "src/drain/drain_machine.hpp"
// (the order above is deliberate)
#include "src/aws/autoscaling_failure.hpp"
#include "src/scaling/group_view.hpp"
#include "src/scaling/scaling_policy.hpp"

namespace runwarden {

// ---- events -------------------------------------------------------------------------------

// The warden's view of the runner: its job count (empty: unknown) and whether it is still
// running (false once a drain began, or before the runner is up).
struct load_observed {
  std::optional<std::uint32_t> jobs_running = {};
  warden_status status = warden_status::running;
};
// The wake-up the machine asked for (or any later one).
struct scaling_tick {};
struct group_read {
  group_view group;
};
// Which call an outcome belongs to.
enum class scaling_call : std::uint8_t { read_group, scale_up, scale_in_self, protect };
struct call_failed {
  scaling_call call = scaling_call::read_group;
  autoscaling_failure failure = {};
};
struct call_succeeded {
  scaling_call call = scaling_call::read_group;
};
using scaling_event =
    std::variant<load_observed, scaling_tick, group_read, call_failed, call_succeeded>;

// ---- decisions ----------------------------------------------------------------------------

struct read_group_now {
  std::string reason = {};
};
struct scale_up {
  std::int32_t desired_capacity = 0;
  bool honor_cooldown = true;
  std::string reason = {};
};
struct scale_in_self {
  std::string reason = {};
};
struct protect_self {
  bool protect = false;
  std::string reason = {};
};
// A group read that decided against acting (at max, at min, in motion, ...).
struct hold_off {
  std::string reason = {};
};
// A failure and what follows from it, or news such as the end of scaling.
struct scaling_note {
  report_level level = report_level::info;
  std::string text = {};
};
using scaling_decision =
    std::variant<read_group_now, scale_up, scale_in_self, protect_self, hold_off, scaling_note>;

struct scaling_step {
  std::vector<scaling_decision> decisions;
  std::optional<instant> wake_at;  // when the machine next wants a scaling_tick
};

// ---- state --------------------------------------------------------------------------------

enum class scaling_intent : std::uint8_t { none, scale_up, scale_in_self };

struct scaling_state {
  scaling_policy policy;
  std::uint64_t random_state = 0;
  bool finished = false;  // a drain began or this instance gave itself up
  std::optional<std::uint32_t> jobs_running = {};
  std::optional<instant> saturated_since = {};  // the saturated spell, dips included
  std::optional<instant> dip_since = {};        // below capacity inside a spell
  std::optional<instant> idle_since = {};
  // The scaling slot.
  scaling_intent intent = scaling_intent::none;
  std::optional<instant> intent_not_before = {};  // the intent's jitter
  std::optional<scaling_call> scaling_in_flight = {};
  std::optional<instant> quiet_until = {};  // cooldown or backoff
  std::uint32_t scaling_failures = 0;
  // The protection slot.
  bool protection_wanted = false;
  bool protection_applied = false;
  std::optional<bool> protection_in_flight = {};  // the state the call in flight asks for
  std::optional<instant> protection_not_before = {};
  std::uint32_t protection_failures = 0;
};

scaling_state initial_scaling_state(const scaling_policy& policy, std::uint64_t random_seed);

scaling_step step(scaling_state& state, const scaling_event& event, instant now);

std::string_view to_string(scaling_call call);

}  // namespace runwarden

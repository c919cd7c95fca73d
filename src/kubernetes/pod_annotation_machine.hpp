#pragma once
// Decides which merge patch runwarden sends its own pod, and when, from the warden's view of
// the runner (src/kubernetes/pod_patch.hpp says what each patch holds).
//
//            jobs > 0                 drain begins (shutting_down, gone)
//   (none) ───────────▶ busy ◀──────▶ idle ───────────────────────────▶ released (final)
//      │     jobs == 0        jobs              ▲
//      └──────────────▶ idle ─────────────────── (from any role)
//
// Busy follows the signal the scaler's scale-in protection follows: the job count the
// metrics poller reported, in the warden's snapshot, while the runner runs. Unknown jobs
// (no metrics yet, the runner starting) change nothing. Busy to idle waits idle_hold_off: a runner
// between two jobs of a pipeline stays protected from disruption, and a job seen within the
// hold-off cancels the idle patch before it is sent. The first idle (never busy) and a drain
// go out at once. One patch is in flight at most; a
// role that changes meanwhile is sent once the answer is in, so patches never cross.
//
// Answers: 2xx applies the role. 409 Conflict and 5xx and transport failures are retried
// after an exponential backoff; 429 Too Many Requests after its Retry-After (capped); other
// statuses (403 without RBAC, 404) are not retried. Every role gets at most attempts_max
// attempts; then it is given up, said as an error, until the role changes again. No I/O, no
// clock: time comes in with each step.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "src/drain/drain_vocabulary.hpp"
#include "src/kubernetes/pod_patch.hpp"
#include "src/util/machine_time.hpp"

namespace runwarden {

struct pod_annotation_policy {
  std::int32_t idle_deletion_cost = -100;  // below an unannotated pod's 0
  // Idle this long after busy before do-not-disrupt is lifted; zero: at once.
  std::chrono::milliseconds idle_hold_off{std::chrono::seconds{30}};
  std::uint32_t attempts_max = 6;  // per role
  std::chrono::milliseconds retry_initial{std::chrono::milliseconds{500}};
  std::chrono::milliseconds retry_max{std::chrono::seconds{30}};
  std::chrono::milliseconds retry_after_max{std::chrono::seconds{60}};  // 429's wait, capped
};

// How one patch ended, as /metrics counts it.
enum class pod_patch_outcome : std::uint8_t {
  applied,    // 2xx
  conflict,   // 409, retried
  throttled,  // 429, retried after Retry-After
  failed,     // 5xx or no answer, retried
  refused,    // any other status: not retried
};
inline constexpr std::size_t pod_patch_outcome_count = 5;
std::string_view to_string(pod_patch_outcome outcome);

// Events (past tense).
struct load_seen {
  warden_status status = warden_status::starting;
  std::optional<std::uint32_t> jobs_running;
};
struct patch_answered {
  std::optional<int> status_code;  // empty: no answer (transport error)
  std::optional<std::chrono::seconds> retry_after;
  std::string detail;  // the transport error or the answer's message, for the log
};
struct patch_timer_fired {};
using pod_annotation_event = std::variant<load_seen, patch_answered, patch_timer_fired>;

// Effects (imperative).
struct send_pod_patch {
  pod_role role;
  std::string body;  // the merge patch
};
struct note_pod_patch {
  report_level level;
  std::string text;
};
using pod_annotation_effect = std::variant<send_pod_patch, note_pod_patch>;

struct pod_annotation_state {
  pod_annotation_policy policy;
  std::optional<pod_role> wanted;
  std::optional<pod_role> applied;
  std::optional<pod_role> in_flight;
  std::optional<pod_role> given_up;  // out of attempts for this role
  std::uint32_t attempts = 0;        // failed attempts for `wanted`
  std::optional<instant> not_before;
  std::optional<instant> idle_due;  // busy, then idle seen: idle is wanted from then on
};

struct pod_annotation_step {
  std::vector<pod_annotation_effect> effects;
  std::optional<pod_patch_outcome> outcome;  // set for patch_answered
  std::optional<instant> wake_at;            // a patch_timer_fired is due then
};

pod_annotation_step step(pod_annotation_state& state, const pod_annotation_event& event,
                         instant now);

// The outcome an answer counts as.
pod_patch_outcome outcome_of(const patch_answered& answer);

}  // namespace runwarden

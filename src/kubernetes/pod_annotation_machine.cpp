// See pod_annotation_machine.hpp. Each step folds the event in, then drives the one patch
// slot: the wanted role goes out when it differs from the applied one, no patch is in flight,
// the backoff has passed and the role was not given up.
#include "src/kubernetes/pod_annotation_machine.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "src/util/assert.hpp"
#include "src/util/capped_backoff.hpp"

namespace runwarden {

namespace {

// The role the runner's state asks for; empty when it says nothing new.
std::optional<pod_role> role_of(const load_seen& load) {
  if (load.status == warden_status::shutting_down || load.status == warden_status::gone)
    return pod_role::released;
  if (load.status != warden_status::running || !load.jobs_running) return std::nullopt;
  return *load.jobs_running > 0 ? pod_role::busy : pod_role::idle;
}

void want(pod_annotation_state& state, pod_role role) {
  // A drain is final: once released, no job count brings the annotations back.
  if (state.wanted == pod_role::released || state.wanted == role) return;
  state.wanted = role;
  state.attempts = 0;
  state.given_up.reset();
  state.not_before.reset();
}

// Folds a role the runner's state asks for in; busy to idle is held off (idle_due).
void seen(pod_annotation_state& state, pod_role role, instant now) {
  if (role != pod_role::idle) {
    state.idle_due.reset();
    return want(state, role);
  }
  const bool after_busy = state.wanted == pod_role::busy;
  if (!after_busy || state.policy.idle_hold_off == duration::zero()) return want(state, role);
  if (!state.idle_due) state.idle_due = now + state.policy.idle_hold_off;
}

void answered(pod_annotation_state& state, const patch_answered& answer, instant now,
              pod_annotation_step& out) {
  if (!state.in_flight) return;  // a stray answer: nothing was sent
  const pod_role role = *state.in_flight;
  state.in_flight.reset();
  const pod_patch_outcome outcome = outcome_of(answer);
  out.outcome = outcome;
  if (outcome == pod_patch_outcome::applied) {
    state.applied = role;
    if (state.wanted == role) state.attempts = 0;
    out.effects.push_back(
        note_pod_patch{report_level::info, fmt::format("pod annotations: {}", to_string(role))});
    return;
  }
  if (state.wanted != role) return;  // the role changed meanwhile: its own attempts count
  ++state.attempts;
  const std::string what =
      answer.status_code ? fmt::format("HTTP {}", *answer.status_code) : "no answer";
  const std::string detail = answer.detail.empty() ? "" : ": " + answer.detail;
  if (outcome == pod_patch_outcome::refused || state.attempts >= state.policy.attempts_max) {
    state.given_up = role;
    out.effects.push_back(note_pod_patch{
        report_level::error,
        fmt::format("pod annotations ({}) not set after {} attempt(s), {}{}; given up until "
                    "the runner's state changes",
                    to_string(role), state.attempts, what, detail)});
    return;
  }
  duration wait =
      capped_backoff(state.policy.retry_initial, state.policy.retry_max, state.attempts, 0, 0);
  if (outcome == pod_patch_outcome::throttled && answer.retry_after)
    wait = std::min<duration>(*answer.retry_after, state.policy.retry_after_max);
  state.not_before = now + wait;
  out.effects.push_back(note_pod_patch{
      report_level::warning,
      fmt::format("pod annotations ({}): {}{}; attempt {} of {} in {} ms", to_string(role), what,
                  detail, state.attempts + 1, state.policy.attempts_max,
                  std::chrono::duration_cast<std::chrono::milliseconds>(wait).count())});
}

void drive(pod_annotation_state& state, instant now, pod_annotation_step& out) {
  if (!state.wanted || state.in_flight || state.wanted == state.applied) return;
  if (state.given_up == state.wanted) return;
  if (state.not_before && now < *state.not_before) {
    out.wake_at = state.not_before;
    return;
  }
  state.not_before.reset();
  state.in_flight = state.wanted;
  out.effects.push_back(send_pod_patch{
      *state.wanted, pod_patch_body(*state.wanted, state.policy.idle_deletion_cost)});
}

}  // namespace

std::string_view to_string(pod_patch_outcome outcome) {
  switch (outcome) {
    case pod_patch_outcome::applied:
      return "applied";
    case pod_patch_outcome::conflict:
      return "conflict";
    case pod_patch_outcome::throttled:
      return "throttled";
    case pod_patch_outcome::failed:
      return "failed";
    case pod_patch_outcome::refused:
      return "refused";
  }
  RUNWARDEN_ASSERT(false);
  return "";
}

pod_patch_outcome outcome_of(const patch_answered& answer) {
  if (!answer.status_code) return pod_patch_outcome::failed;
  const int code = *answer.status_code;
  if (code >= 200 && code < 300) return pod_patch_outcome::applied;
  if (code == 409) return pod_patch_outcome::conflict;
  if (code == 429) return pod_patch_outcome::throttled;
  if (code >= 500) return pod_patch_outcome::failed;
  return pod_patch_outcome::refused;
}

pod_annotation_step step(pod_annotation_state& state, const pod_annotation_event& event,
                         instant now) {
  RUNWARDEN_ASSERT(state.policy.attempts_max >= 1);
  pod_annotation_step out;
  if (const auto* load = std::get_if<load_seen>(&event)) {
    if (const auto role = role_of(*load)) seen(state, *role, now);
  } else if (const auto* answer = std::get_if<patch_answered>(&event)) {
    answered(state, *answer, now, out);
  }
  // patch_timer_fired only lets the backoff's end, or the hold-off's, be seen.
  if (state.idle_due && now >= *state.idle_due) {
    state.idle_due.reset();
    want(state, pod_role::idle);
  }
  drive(state, now, out);
  if (state.idle_due && (!out.wake_at || *state.idle_due < *out.wake_at))
    out.wake_at = state.idle_due;
  RUNWARDEN_ASSERT(!state.in_flight || !state.wanted || state.given_up != state.in_flight);
  return out;
}

}  // namespace runwarden

// See scaling_machine.hpp. Each step first folds the event into the load picture, then lets
// time age it (dips, idle spells), then drives the two slots; the wake-up it returns is the
// earliest moment at which aging alone could change a decision.
#include "src/scaling/scaling_machine.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "src/util/assert.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/duration_text.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

// Backoff waits are shortened by up to this share, so a fleet failing together spreads out.
constexpr double retry_jitter = 0.25;

std::string text_of(duration span) {
  return format_duration(std::chrono::duration_cast<std::chrono::milliseconds>(span));
}

duration random_part(std::uint64_t& random_state, std::chrono::milliseconds whole) {
  const double share = next_unit_random(random_state);
  return std::chrono::duration_cast<duration>(std::chrono::duration<double, std::nano>(
      share * static_cast<double>(duration{whole}.count())));
}

bool saturated_long_enough(const scaling_state& state, instant now) {
  return state.jobs_running && *state.jobs_running >= state.policy.capacity &&
         state.saturated_since && now - *state.saturated_since >= duration{state.policy.window};
}

bool idle_long_enough(const scaling_state& state, instant now) {
  return state.jobs_running == 0u && state.idle_since &&
         now - *state.idle_since >= duration{state.policy.idle_threshold};
}

void observe_load(scaling_state& state, const load_observed& load, instant now, scaling_step& out) {
  if (load.status == warden_status::shutting_down || load.status == warden_status::gone) {
    state.finished = true;
    out.decisions.push_back(
        scaling_note{report_level::info, "a drain has begun: no more scaling decisions"});
    return;
  }
  // Before the runner runs, its job count means nothing.
  const auto jobs = load.status == warden_status::running ? load.jobs_running : std::nullopt;
  state.jobs_running = jobs;
  if (!jobs) {
    state.saturated_since.reset();
    state.dip_since.reset();
    state.idle_since.reset();
    return;
  }
  if (*jobs >= state.policy.capacity) {
    if (!state.saturated_since) state.saturated_since = now;
    state.dip_since.reset();
  } else if (state.saturated_since && !state.dip_since) {
    state.dip_since = now;
  }
  if (*jobs == 0) {
    if (!state.idle_since) state.idle_since = now;
  } else {
    state.idle_since.reset();
    if (state.policy.protect_while_busy) state.protection_wanted = true;
  }
}

void age(scaling_state& state, instant now) {
  if (state.dip_since && now - *state.dip_since >= duration{state.policy.dip_tolerance}) {
    state.saturated_since.reset();
    state.dip_since.reset();
  }
  if (state.idle_since && now - *state.idle_since >= duration{state.policy.protection_release})
    state.protection_wanted = false;
}

void drive_protection(scaling_state& state, instant now, scaling_step& out) {
  if (!state.policy.protect_while_busy || state.protection_in_flight) return;
  if (state.protection_wanted == state.protection_applied) return;
  if (state.protection_not_before && now < *state.protection_not_before) return;
  state.protection_in_flight = state.protection_wanted;
  const std::string reason =
      state.protection_wanted
          ? fmt::format("{} job(s) running", state.jobs_running.value_or(0))
          : fmt::format("idle for {}", text_of(state.policy.protection_release));
  out.decisions.push_back(protect_self{state.protection_wanted, reason});
}

scaling_intent intent_now(const scaling_state& state, instant now) {
  if (!state.policy.decide_capacity) return scaling_intent::none;  // the group's policies decide
  if (saturated_long_enough(state, now)) return scaling_intent::scale_up;
  if (idle_long_enough(state, now)) return scaling_intent::scale_in_self;
  return scaling_intent::none;
}

void drive_scaling(scaling_state& state, instant now, scaling_step& out) {
  if (state.scaling_in_flight) return;
  const scaling_intent intent = intent_now(state, now);
  if (intent != state.intent) {
    state.intent = intent;
    state.intent_not_before.reset();
  }
  if (intent == scaling_intent::none) return;
  if (state.quiet_until && now < *state.quiet_until) return;
  // A protected instance gives itself up only once its protection is off.
  if (intent == scaling_intent::scale_in_self &&
      (state.protection_applied || state.protection_in_flight))
    return;
  if (!state.intent_not_before)
    state.intent_not_before = now + random_part(state.random_state, state.policy.jitter);
  if (now < *state.intent_not_before) return;
  state.intent_not_before.reset();
  state.scaling_in_flight = scaling_call::read_group;
  out.decisions.push_back(
      read_group_now{intent == scaling_intent::scale_up
                         ? fmt::format("saturated ({} of {} jobs) for {}", *state.jobs_running,
                                       state.policy.capacity, text_of(now - *state.saturated_since))
                         : fmt::format("idle for {}", text_of(now - *state.idle_since))});
}

// A group read that decided against acting: say why, and read again only after a cooldown.
void hold(scaling_state& state, instant now, scaling_step& out, std::string reason) {
  state.quiet_until = now + duration{state.policy.cooldown};
  out.decisions.push_back(hold_off{std::move(reason)});
}

void decide_scale_up(scaling_state& state, const group_view& group, instant now,
                     scaling_step& out) {
  const scaling_policy& policy = state.policy;
  const std::int32_t top = std::min(group.max_size, policy.ceiling.value_or(group.max_size));
  if (top < group.min_size)
    return hold(state, now, out,
                fmt::format("saturated, but the configured ceiling ({}) is below {}'s min ({})",
                            top, group.group_name, group.min_size));
  if (group.pending >= policy.step)
    return hold(state, now, out,
                fmt::format("saturated, but {} instance(s) already launching in {}", group.pending,
                            group.group_name));
  const std::int32_t target = std::min(group.desired_capacity + policy.step - group.pending, top);
  if (target <= group.desired_capacity) {
    const bool at_max = top == group.max_size;
    return hold(state, now, out,
                fmt::format("saturated, but {} is at its {} ({})", group.group_name,
                            at_max ? "max" : "configured ceiling", top));
  }
  state.scaling_in_flight = scaling_call::scale_up;
  out.decisions.push_back(scale_up{
      target, policy.honor_cooldown,
      fmt::format("saturated ({} of {} jobs) for {}: {} desired {} -> {} (max {}, {} launching)",
                  *state.jobs_running, policy.capacity, text_of(now - *state.saturated_since),
                  group.group_name, group.desired_capacity, target, top, group.pending)});
}

void decide_scale_in(scaling_state& state, const group_view& group, instant now,
                     scaling_step& out) {
  if (group.desired_capacity <= group.min_size)
    return hold(state, now, out,
                fmt::format("idle, but {} is at its min ({})", group.group_name, group.min_size));
  if (group.pending > 0 || group.terminating > 0)
    return hold(state, now, out,
                fmt::format("idle, but {} is in motion ({} launching, {} terminating)",
                            group.group_name, group.pending, group.terminating));
  state.scaling_in_flight = scaling_call::scale_in_self;
  out.decisions.push_back(scale_in_self{fmt::format(
      "idle for {}: {} desired {} -> {} (min {})", text_of(now - *state.idle_since),
      group.group_name, group.desired_capacity, group.desired_capacity - 1, group.min_size)});
}

void decide_with_group(scaling_state& state, const group_view& group, instant now,
                       scaling_step& out) {
  if (state.scaling_in_flight != scaling_call::read_group) return;  // not asked for
  state.scaling_in_flight.reset();
  // The group knows best whether this instance is protected (it may protect new instances).
  if (state.policy.protect_while_busy && !state.protection_in_flight)
    state.protection_applied = group.self_protected;
  if (group.self_state != "InService")
    return hold(state, now, out,
                fmt::format("this instance is {} in {}, not InService: no scaling",
                            group.self_state.value_or("not listed"), group.group_name));
  if (saturated_long_enough(state, now)) return decide_scale_up(state, group, now, out);
  if (idle_long_enough(state, now)) {
    if (state.protection_applied) return;  // the protection slot takes it off first
    return decide_scale_in(state, group, now, out);
  }
  out.decisions.push_back(
      scaling_note{report_level::debug, "the load changed while the group was read"});
}

void on_success(scaling_state& state, scaling_call call, instant now, scaling_step& out) {
  if (call == scaling_call::protect) {
    if (!state.protection_in_flight) return;
    state.protection_applied = *state.protection_in_flight;
    state.protection_in_flight.reset();
    state.protection_failures = 0;
    state.protection_not_before = now + duration{state.policy.protection_interval_min};
    return;
  }
  if (state.scaling_in_flight != call) return;
  state.scaling_in_flight.reset();
  state.scaling_failures = 0;
  if (call == scaling_call::scale_in_self) {
    state.finished = true;
    out.decisions.push_back(
        scaling_note{report_level::info,
                     "this instance gave itself up: its terminate lifecycle hook drains it"});
    return;
  }
  // The new instances need time to take jobs: a fresh window after the cooldown.
  state.quiet_until = now + duration{state.policy.cooldown};
  if (state.saturated_since) state.saturated_since = now;
}

void on_failure(scaling_state& state, const call_failed& failed, instant now, scaling_step& out) {
  if (failed.failure.kind == autoscaling_failure_kind::already_done)
    return on_success(state, failed.call, now, out);
  const bool protection = failed.call == scaling_call::protect;
  if (protection ? !state.protection_in_flight : state.scaling_in_flight != failed.call) return;
  std::uint32_t& failures = protection ? state.protection_failures : state.scaling_failures;
  ++failures;
  const scaling_policy& policy = state.policy;
  const bool denied = failed.failure.kind == autoscaling_failure_kind::access_denied;
  const duration wait = denied ? duration{policy.retry_max}
                               : capped_backoff(policy.retry_initial, policy.retry_max, failures,
                                                retry_jitter, next_unit_random(state.random_state));
  if (protection) {
    state.protection_in_flight.reset();
    state.protection_not_before = now + wait;
  } else {
    state.scaling_in_flight.reset();
    state.quiet_until = now + wait;
  }
  const report_level level = denied ? report_level::error
                             : failed.failure.kind == autoscaling_failure_kind::retry_later
                                 ? report_level::info
                                 : report_level::warning;
  out.decisions.push_back(scaling_note{
      level, fmt::format("{} failed ({} {}): {}; trying again in {}", to_string(failed.call),
                         failure_kind_name(failed.failure.kind), failed.failure.code,
                         failed.failure.description, text_of(wait))});
}

void consider(std::optional<instant>& earliest, std::optional<instant> candidate, instant now) {
  if (!candidate || *candidate <= now) return;
  if (!earliest || *candidate < *earliest) earliest = candidate;
}

std::optional<instant> next_wake(const scaling_state& state, instant now) {
  if (state.finished) return std::nullopt;
  const scaling_policy& policy = state.policy;
  std::optional<instant> earliest;
  if (state.saturated_since)
    consider(earliest, *state.saturated_since + duration{policy.window}, now);
  if (state.dip_since) consider(earliest, *state.dip_since + duration{policy.dip_tolerance}, now);
  if (state.idle_since) {
    consider(earliest, *state.idle_since + duration{policy.idle_threshold}, now);
    consider(earliest, *state.idle_since + duration{policy.protection_release}, now);
  }
  if (state.intent != scaling_intent::none) {
    consider(earliest, state.quiet_until, now);
    consider(earliest, state.intent_not_before, now);
  }
  if (state.protection_wanted != state.protection_applied)
    consider(earliest, state.protection_not_before, now);
  return earliest;
}

}  // namespace

scaling_state initial_scaling_state(const scaling_policy& policy, std::uint64_t random_seed) {
  RUNWARDEN_ASSERT(policy.capacity > 0 && policy.step > 0);
  return scaling_state{.policy = policy, .random_state = random_seed};
}

scaling_step step(scaling_state& state, const scaling_event& event, instant now) {
  scaling_step out;
  if (state.finished) return out;
  if (const auto* load = std::get_if<load_observed>(&event)) {
    observe_load(state, *load, now, out);
    if (state.finished) return out;
  }
  age(state, now);
  if (const auto* read = std::get_if<group_read>(&event))
    decide_with_group(state, read->group, now, out);
  else if (const auto* failed = std::get_if<call_failed>(&event))
    on_failure(state, *failed, now, out);
  else if (const auto* succeeded = std::get_if<call_succeeded>(&event))
    on_success(state, succeeded->call, now, out);
  if (state.finished) return out;
  drive_protection(state, now, out);
  drive_scaling(state, now, out);
  out.wake_at = next_wake(state, now);
  return out;
}

std::string_view to_string(scaling_call call) {
  switch (call) {
    case scaling_call::read_group:
      return "reading the group";
    case scaling_call::scale_up:
      return "SetDesiredCapacity";
    case scaling_call::scale_in_self:
      return "TerminateInstanceInAutoScalingGroup";
    case scaling_call::protect:
      return "SetInstanceProtection";
  }
  return "a scaling call";
}

}  // namespace runwarden

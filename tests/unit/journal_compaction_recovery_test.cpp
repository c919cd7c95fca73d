// Recovery from a compacted journal concludes what recovery from the full journal does.
// Method: seeded random histories of a running instance (runner spawns, loads, job reports,
// crashes and restarts, minutes to hours apart) are recorded with the history compaction
// folds; a warden would have drained the moment its retirement machine decided, so a
// history ends there. Each history is compacted at its end, and both journals are folded
// as the warden folds them at a restart (actors/warden/warden_actor.cpp `recover`, with the
// retirement machine fed as observe_for_retirement feeds it while replaying). At several
// later times the two recoveries must agree: the retirement timers they arm, the jobs they
// count, the decisions the timers and later jobs bring, the drain's status, runner, jobs,
// timers and restart budget; and the compacted journal replays to its recorded effects.
// The seed is printed on failure.
#include <catch2/catch.hpp>

#include <random>

#include "src/drain/drain_effect_text.hpp"
#include "src/journal/journal_compaction.hpp"
#include "src/journal/journal_replay.hpp"
#include "src/retirement/retirement_machine.hpp"
#include "src/supervision/restart_decision.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;
using namespace std::chrono_literals;

using timed_event = std::pair<instant, drain_event>;

// What the retirement machine learns from an entry while a journal is folded: as
// observe_for_retirement (actors/warden/warden_retirement.cpp) with replaying set.
std::optional<retirement_event> learned_from(const drain_event& event, const drain_state& after,
                                             std::size_t reported_before) {
  if (std::holds_alternative<warden_started>(event)) return retirement_watch_began{};
  if (const auto* spawned = std::get_if<runner_spawned>(&event)) {
    if (after.runner == runner_state::alive && after.runner_pid == spawned->pid)
      return runner_came_up{};
  } else if (std::holds_alternative<job_reported>(event)) {
    if (after.jobs_reported.jobs().size() > reported_before) return job_began{};
  } else if (std::holds_alternative<runner_load_observed>(event)) {
    if (after.jobs_scraped) return running_jobs_seen{*after.jobs_scraped};
  }
  return std::nullopt;
}

// A warden's two machines, fed one entry at a time.
struct folded {
  drain_machine drain;
  retirement_machine retirement;

  folded(const drain_config& config, const retirement_policy& policy)
      : drain(config), retirement(policy) {}

  void take(const drain_event& event, instant at) {
    const auto reported_before = drain.state().jobs_reported.jobs().size();
    (void)drain.step(event, at);
    if (const auto learned = learned_from(event, drain.state(), reported_before))
      (void)retirement.step(*learned, at);
  }
};

// What a recovery at `at` arms and concludes, comparable.
struct recovery {
  std::vector<std::pair<retirement_timer, instant>> retirement_timers;
  std::optional<instant> idle_due;
  std::optional<instant> uptime_due;
  std::uint64_t jobs_taken = 0;
  warden_status status = warden_status::starting;
  std::optional<std::int64_t> runner_pid;
  std::optional<instant> runner_started_at;
  std::optional<std::uint32_t> jobs_running;
  job_ledger jobs_reported;
  std::vector<std::pair<timer_kind, instant>> drain_timers;
  std::vector<instant> restarts_in_window;
  bool operator==(const recovery&) const = default;
};

std::string ns(std::optional<instant> at) {
  return at ? std::to_string(at->count()) : std::string{"-"};
}

// For the failure message: every field, in order.
std::string text(const recovery& r) {
  std::string out = "retirement timers";
  for (const auto& [kind, at] : r.retirement_timers)
    out += " " + std::to_string(static_cast<int>(kind)) + "@" + ns(at);
  out += "; idle " + ns(r.idle_due) + " uptime " + ns(r.uptime_due) + " jobs " +
         std::to_string(r.jobs_taken) + "; status " + std::to_string(static_cast<int>(r.status)) +
         " pid " + (r.runner_pid ? std::to_string(*r.runner_pid) : "-") + " started " +
         ns(r.runner_started_at) + " running " +
         (r.jobs_running ? std::to_string(*r.jobs_running) : "-") + " reported " +
         std::to_string(r.jobs_reported.jobs().size()) + (r.jobs_reported.reporting() ? "+" : "") +
         "; drain timers";
  for (const auto& [kind, at] : r.drain_timers)
    out += " " + std::to_string(static_cast<int>(kind)) + "@" + ns(at);
  out += "; restarts " + std::to_string(r.restarts_in_window.size());
  return out;
}

recovery recover(folded& machines, instant at) {
  recovery result;
  for (const auto& effect : machines.retirement.step(retirement_watch_began{}, at))
    if (const auto* arm = std::get_if<arm_retirement_timer>(&effect))
      result.retirement_timers.emplace_back(arm->kind, arm->at);
  const auto& retirement = machines.retirement.state();
  result.idle_due = retirement.idle_due;
  result.uptime_due = retirement.uptime_due;
  result.jobs_taken = machines.retirement.jobs_taken();
  const auto& drain = machines.drain.state();
  result.status = drain.status;
  result.runner_pid = drain.runner_pid;
  result.runner_started_at = drain.runner_started_at;
  result.jobs_running = drain.jobs_running;
  result.jobs_reported = drain.jobs_reported;
  for (const auto& rearm : machines.drain.timer_rearms())
    result.drain_timers.emplace_back(rearm.kind, rearm.at);
  result.restarts_in_window = drain.recent_restarts;
  forget_restarts_outside_window(result.restarts_in_window,
                                 machines.drain.config().restart.budget_window, at);
  return result;
}

// What happens after the recovery, the same for both: a timer of each kind at `at`, then a
// job, then the runner's end; the decisions, in order.
std::vector<std::string> decisions_after(folded& machines, instant at) {
  std::vector<std::string> said;
  const auto note = [&](const std::vector<retirement_effect>& effects) {
    for (const auto& effect : effects)
      if (const auto* retire = std::get_if<retire_instance>(&effect))
        said.emplace_back(retirement_cause_token(retire->cause));
  };
  note(machines.retirement.step(retirement_timer_fired{retirement_timer::idle}, at));
  note(machines.retirement.step(retirement_timer_fired{retirement_timer::uptime}, at));
  note(machines.retirement.step(job_began{}, at));
  note(machines.retirement.step(running_jobs_seen{1}, at));
  note(machines.retirement.step(runner_went_down{exit_status{}, 0u, restart_verdict::restart}, at));
  said.push_back("jobs " + std::to_string(machines.retirement.jobs_taken()));
  return said;
}

retirement_policy policy_for(std::mt19937_64& random) {
  retirement_policy policy;
  switch (random() % 3) {
    case 0:  // a one-job runner
      policy.after_exit = after_exit_action::retire;
      policy.idle_retire_after = std::chrono::minutes{5 + random() % 30};
      break;
    case 1:  // a recycled one
      policy.recycle.after_jobs = 3 + random() % 6;
      policy.recycle.after_uptime = std::chrono::hours{2 + random() % 6};
      break;
    default:  // a recycled one that counts from its first start
      policy.recycle.after_uptime = std::chrono::hours{1 + random() % 3};
      policy.recycle.after_jobs = 20;
      break;
  }
  return policy;
}

// The next input a running instance may see, given its state.
drain_event next_event(std::mt19937_64& random, const drain_state& state, std::int64_t& next_pid,
                       bool reports, bool scrapes) {
  if (state.runner == runner_state::spawning) return runner_spawned{next_pid++};
  if (state.runner == runner_state::backing_off)
    return timer_fired{timer_kind::restart_backoff, state.timers.restart_backoff->id};
  const auto pick = random() % 10;
  if (pick == 0)
    return runner_exited{*state.runner_pid, exit_status{.signaled = random() % 2 == 0, .value = 9}};
  if (reports && pick <= 3) {
    const auto& jobs = state.jobs_reported.jobs();
    if (!jobs.empty() && random() % 2 == 0)
      return job_reported{job_report_kind::ended, jobs[random() % jobs.size()]};
    return job_reported{job_report_kind::started, "job-" + std::to_string(random() % 6)};
  }
  if (scrapes && pick <= 8) return runner_load_observed{static_cast<std::uint32_t>(random() % 3)};
  return runner_load_observed{std::nullopt, random() % 2 == 0 ? "" : "running"};
}

// A history as the warden would write it: it ends where the live retirement machine decides
// (the warden then drains), or where a retirement timer would have fired and decided.
std::vector<timed_event> live_history(std::mt19937_64& random, const drain_config& config,
                                      const retirement_policy& policy, instant& now) {
  folded live{config, policy};
  std::vector<timed_event> history;
  const bool reports = random() % 2 == 0;
  const bool scrapes = !reports || random() % 2 == 0;
  std::int64_t next_pid = 100;
  const auto count = 5 + random() % 60;
  for (std::uint64_t i = 0; i < count; ++i) {
    const drain_event event =
        i == 0 ? drain_event{warden_started{}}
               : next_event(random, live.drain.state(), next_pid, reports, scrapes);
    auto at = now + std::chrono::seconds{random() % 900};
    if (std::holds_alternative<timer_fired>(event))
      at = std::max(now, live.drain.state().timers.restart_backoff->at);
    for (const auto kind : {retirement_timer::idle, retirement_timer::uptime}) {
      const auto& state = live.retirement.state();
      const auto due = kind == retirement_timer::idle ? state.idle_due : state.uptime_due;
      if (due && *due <= at) (void)live.retirement.step(retirement_timer_fired{kind}, *due);
    }
    if (live.retirement.state().decided) break;
    if (const auto* exited = std::get_if<runner_exited>(&event)) {
      // As classify_runner_end: the end is judged before the drain machine takes it.
      const auto& drain = live.drain.state();
      (void)live.retirement.step(
          runner_went_down{exited->status, drain.jobs_running, restart_verdict::restart}, at);
      if (live.retirement.state().decided) break;
    }
    now = at;
    live.take(event, now);
    history.emplace_back(now, event);
    const auto status = live.drain.state().status;
    if (live.retirement.state().decided ||
        (status != warden_status::starting && status != warden_status::running))
      break;
  }
  return history;
}

}  // namespace

TEST_CASE("recovery from a compacted journal concludes what recovery from the full one does",
          "[journal][compaction][retirement]") {
  const auto config = journal_test_config();
  std::uint64_t compacted = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 random{seed};
    const auto policy = policy_for(random);
    instant now{std::chrono::seconds{random() % 100}};
    const auto history = live_history(random, config, policy, now);
    followed_machine followed{config};
    for (const auto& [at, event] : history) (void)followed.step(event, at);
    now += std::chrono::seconds{random() % 120};
    const auto steps = followed.compacted(now);
    if (!steps) continue;
    ++compacted;
    // Written as a journal, the steps replay to the effects recorded with them.
    std::vector<journal_entry> entries;
    for (const auto& step : *steps) {
      CHECK(step.at <= now);
      journal_entry entry{
          .sequence = entries.size() + 1, .at = step.at, .event = step.event, .effects = {}};
      for (const auto& effect : step.effects) entry.effects.push_back(to_string(effect));
      entries.push_back(std::move(entry));
    }
    CHECK_FALSE(
        replay_journal(journal_header{.created_by = "test", .created_unix_ns = 1, .config = config},
                       entries)
            .first_difference);
    for (const duration later : {duration{0s}, duration{59s}, duration{10min}, duration{40min},
                                 duration{3h}, duration{9h}}) {
      CAPTURE(later.count());
      folded full{config, policy};
      for (const auto& [at, event] : history) full.take(event, at);
      folded from_compacted{config, policy};
      for (const auto& step : *steps) from_compacted.take(step.event, step.at);
      const auto at = now + later;
      const auto expected = recover(full, at);
      const auto got = recover(from_compacted, at);
      CHECK(text(expected) == text(got));
      CHECK(expected == got);
      CHECK(decisions_after(full, at) == decisions_after(from_compacted, at));
    }
  }
  CHECK(compacted > 100);  // most histories end in a state that compaction rewrites
}

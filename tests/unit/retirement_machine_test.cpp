// The retirement machine on its own: events in with their time, decisions out. Each case
// feeds one life of a runner and checks the one decision it ends in (or that there is none),
// since a decision is final: the same inputs after it change nothing.
#include <catch2/catch.hpp>

#include <chrono>

#include "src/retirement/retirement_machine.hpp"

using namespace runwarden;
using namespace std::chrono_literals;

namespace {

retirement_policy one_job() {
  retirement_policy policy;
  policy.after_exit = after_exit_action::retire;
  return policy;
}

std::optional<retire_instance> decision_in(const std::vector<retirement_effect>& effects) {
  for (const auto& effect : effects)
    if (const auto* retire = std::get_if<retire_instance>(&effect)) return *retire;
  return std::nullopt;
}

runner_went_down ended(exit_status status, std::optional<std::uint32_t> jobs_running = 0u,
                       restart_verdict verdict = restart_verdict::restart) {
  return runner_went_down{status, jobs_running, verdict};
}

const exit_status clean{};
const exit_status crashed{.signaled = true, .value = 9};

}  // namespace

TEST_CASE("a one-job runner that did its job retires, and decrement follows the cause",
          "[retirement]") {
  retirement_machine machine{one_job()};
  machine.step(runner_came_up{}, 0s);
  machine.step(job_began{}, 5s);
  const auto decision = decision_in(machine.step(ended(clean), 60s));
  REQUIRE(decision);
  CHECK(decision->cause == retirement_cause::job_done);
  CHECK(decision->end == instance_end::terminate);
  CHECK(cause_consumes_capacity(decision->cause));
  CHECK(machine.state().decided == retirement_cause::job_done);
  // Final: another end, another job change nothing.
  CHECK(machine.step(ended(crashed, 1u), 61s).empty());
  CHECK_FALSE(decision_in(machine.step(job_began{}, 62s)));
}

TEST_CASE("a job seen only in the metrics counts as taken", "[retirement]") {
  retirement_machine machine{one_job()};
  machine.step(runner_came_up{}, 0s);
  machine.step(running_jobs_seen{1}, 5s);
  machine.step(running_jobs_seen{0}, 50s);
  const auto decision = decision_in(machine.step(ended(clean), 60s));
  REQUIRE(decision);
  CHECK(decision->cause == retirement_cause::job_done);
  CHECK(machine.jobs_taken() == 1u);
}

TEST_CASE("a crash mid-job is said as an error, then the instance retires", "[retirement]") {
  retirement_machine machine{one_job()};
  machine.step(runner_came_up{}, 0s);
  machine.step(job_began{}, 1s);
  const auto effects = machine.step(ended(crashed, 1u), 30s);
  const auto decision = decision_in(effects);
  REQUIRE(decision);
  CHECK(decision->cause == retirement_cause::crashed_mid_job);
  CHECK_FALSE(cause_consumes_capacity(decision->cause));
  bool error_said = false;
  for (const auto& effect : effects)
    if (const auto* said = std::get_if<report_retirement>(&effect))
      error_said = error_said || said->level == report_level::error;
  CHECK(error_said);
}

TEST_CASE("a one-job runner that failed before a job starts again within its budget",
          "[retirement]") {
  retirement_machine machine{one_job()};
  machine.step(runner_came_up{}, 0s);
  CHECK_FALSE(decision_in(machine.step(ended(crashed), 2s)));
  machine.step(runner_came_up{}, 3s);
  // Past the budget, on_give_up decides; its default `exit` leaves it to the drain.
  CHECK_FALSE(decision_in(machine.step(ended(crashed, 0u, restart_verdict::budget_spent), 4s)));
  CHECK_FALSE(machine.state().decided);
}

TEST_CASE("a one-job runner whose policy keeps it down retires", "[retirement]") {
  retirement_machine machine{one_job()};
  machine.step(runner_came_up{}, 0s);
  const auto decision =
      decision_in(machine.step(ended(clean, 0u, restart_verdict::policy_keeps_down), 2s));
  REQUIRE(decision);
  CHECK(decision->cause == retirement_cause::ended_without_job);
}

TEST_CASE("past the restart budget, on_give_up chooses unhealthy or retire", "[retirement]") {
  for (const auto choice : {give_up_choice::unhealthy, give_up_choice::retire}) {
    retirement_policy policy;
    policy.on_give_up = choice;
    retirement_machine machine{policy};
    machine.step(runner_came_up{}, 0s);
    CHECK_FALSE(decision_in(machine.step(ended(crashed), 1s)));  // within the budget
    machine.step(runner_came_up{}, 2s);
    const auto decision =
        decision_in(machine.step(ended(crashed, 0u, restart_verdict::budget_spent), 3s));
    REQUIRE(decision);
    CHECK(decision->cause == retirement_cause::restart_budget_spent);
    CHECK(decision->end == (choice == give_up_choice::unhealthy ? instance_end::mark_unhealthy
                                                                : instance_end::terminate));
  }
}

TEST_CASE("a restarting runner that ends normally is no retirement", "[retirement]") {
  retirement_machine machine{retirement_policy{}};
  machine.step(runner_came_up{}, 0s);
  machine.step(job_began{}, 1s);
  CHECK_FALSE(decision_in(machine.step(ended(clean), 2s)));
}

TEST_CASE("recycling after N jobs decides at the N-th job's start, across runners",
          "[retirement]") {
  retirement_policy policy;
  policy.recycle.after_jobs = 3;
  retirement_machine machine{policy};
  machine.step(runner_came_up{}, 0s);
  CHECK_FALSE(decision_in(machine.step(job_began{}, 1s)));
  CHECK_FALSE(decision_in(machine.step(running_jobs_seen{1}, 2s)));  // the same job, seen twice
  machine.step(ended(clean), 3s);
  machine.step(runner_came_up{}, 4s);
  CHECK_FALSE(decision_in(machine.step(job_began{}, 5s)));
  const auto decision = decision_in(machine.step(job_began{}, 6s));
  REQUIRE(decision);
  CHECK(decision->cause == retirement_cause::recycle_jobs);
  CHECK_FALSE(cause_consumes_capacity(decision->cause));
}

TEST_CASE("recycling after an uptime fires its timer once, and a stale timer does nothing",
          "[retirement]") {
  retirement_policy policy;
  policy.recycle.after_uptime = 14 * 24h;
  retirement_machine machine{policy};
  const auto armed = machine.step(retirement_watch_began{}, 10s);
  REQUIRE(armed.size() == 1);
  CHECK(std::get<arm_retirement_timer>(armed.front()).at == 10s + 14 * 24h);
  CHECK(machine.step(retirement_timer_fired{retirement_timer::uptime}, 10s).empty());  // early
  const auto decision =
      decision_in(machine.step(retirement_timer_fired{retirement_timer::uptime}, 10s + 14 * 24h));
  REQUIRE(decision);
  CHECK(decision->cause == retirement_cause::recycle_uptime);
}

TEST_CASE("recycling when the disk passes its threshold", "[retirement]") {
  retirement_policy policy;
  policy.recycle.disk_path = "/var/lib/builds";
  policy.recycle.disk_used_percent_max = 90;
  retirement_machine machine{policy};
  CHECK_FALSE(decision_in(machine.step(disk_usage_seen{89}, 1s)));
  const auto decision = decision_in(machine.step(disk_usage_seen{90}, 2s));
  REQUIRE(decision);
  CHECK(decision->cause == retirement_cause::recycle_disk);
}

TEST_CASE("a one-job runner that takes no job within the idle bound retires", "[retirement]") {
  auto policy = one_job();
  policy.idle_retire_after = 15min;
  retirement_machine machine{policy};
  const auto armed = machine.step(runner_came_up{}, 0s);
  REQUIRE(armed.size() == 1);
  CHECK(std::get<arm_retirement_timer>(armed.front()).at == 15min);
  const auto decision = decision_in(machine.step(retirement_timer_fired{}, 15min));
  REQUIRE(decision);
  CHECK(decision->cause == retirement_cause::idle);

  retirement_machine busy{policy};
  busy.step(runner_came_up{}, 0s);
  busy.step(job_began{}, 1min);
  CHECK(busy.step(retirement_timer_fired{}, 15min).empty());  // a job came: no idle bound
}

// A warden restarted from its journal starts watching again: the uptime bound must not start
// over (a machine whose warden restarts more often than the bound would never recycle).
TEST_CASE("the uptime bound counts from the machine's boot, across restarts", "[retirement]") {
  retirement_policy policy;
  policy.recycle.after_uptime = 6h;
  retirement_machine first{policy};
  const auto armed = first.step(retirement_watch_began{instant{-2h}}, 10s);
  REQUIRE(armed.size() == 1);
  CHECK(std::get<arm_retirement_timer>(armed.front()).at == 4h);
  // Restarted (a fresh machine, as after a fold of the journal) 3 h later: the same bound.
  retirement_machine restarted{policy};
  restarted.step(retirement_watch_began{}, 10s);  // the journal's start, folded
  const auto again = restarted.step(retirement_watch_began{instant{-2h}}, 3h);
  REQUIRE(again.size() == 1);
  CHECK(std::get<arm_retirement_timer>(again.front()).at == 4h);
  // Already past the bound at the start: due at once.
  retirement_machine late{policy};
  const auto due = late.step(retirement_watch_began{instant{-7h}}, 10s);
  CHECK(std::get<arm_retirement_timer>(due.front()).at == -1h);
  REQUIRE(decision_in(late.step(retirement_timer_fired{retirement_timer::uptime}, 10s)));
}

TEST_CASE("with the boot unknown, the uptime bound counts from the first start it saw",
          "[retirement]") {
  retirement_policy policy;
  policy.recycle.after_uptime = 6h;
  retirement_machine machine{policy};
  machine.step(retirement_watch_began{}, 10s);  // the journal's first start, folded
  const auto armed = machine.step(retirement_watch_began{}, 5h);
  REQUIRE(armed.size() == 1);
  CHECK(std::get<arm_retirement_timer>(armed.front()).at == 10s + 6h);
}

TEST_CASE("a restart while the idle bound runs arms it again for what was left", "[retirement]") {
  auto policy = one_job();
  policy.idle_retire_after = 15min;
  retirement_machine machine{policy};
  machine.step(runner_came_up{}, 0s);  // folded from the journal
  const auto armed = machine.step(retirement_watch_began{}, 10min);
  REQUIRE(armed.size() == 1);
  CHECK(std::get<arm_retirement_timer>(armed.front()).kind == retirement_timer::idle);
  CHECK(std::get<arm_retirement_timer>(armed.front()).at == 15min);
  // A job taken before the restart: nothing to arm.
  retirement_machine busy{policy};
  busy.step(runner_came_up{}, 0s);
  busy.step(job_began{}, 1min);
  CHECK(busy.step(retirement_watch_began{}, 10min).empty());
}

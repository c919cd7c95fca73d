// The drain machine with jobs the runner reports (runwarden ctl job): they count in the
// jobs running that the drain, the status and the scaler read, alongside the metrics; the
// runner's exit ends them; a report with no runner alive is dropped; and compaction keeps
// them, so a warden started from a compacted journal knows them too.
#include <catch2/catch.hpp>

#include "src/drain/warden_snapshot.hpp"
#include "src/journal/journal_compaction.hpp"
#include "tests/unit/journal_samples.hpp"
#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

job_reported start(std::string id) { return {job_report_kind::started, std::move(id)}; }
job_reported end(std::string id) { return {job_report_kind::ended, std::move(id)}; }

}  // namespace

TEST_CASE("reported jobs are the jobs of a runner without metrics", "[drain][jobs]") {
  machine_under_test m;
  m.start_running();
  CHECK(m.state().jobs_running == std::nullopt);
  CHECK(m.at(1s, start("run-1")).empty());
  CHECK(m.state().jobs_running == 1u);
  m.at(2s, start("run-1"));  // said twice
  CHECK(m.state().jobs_running == 1u);
  m.at(3s, end("run-1"));
  CHECK(m.state().jobs_running == 0u);
  CHECK(snapshot_of(m.state(), instant{3s}, 1).jobs_running == 0u);
}

TEST_CASE("reported jobs and metrics give the larger count", "[drain][jobs]") {
  machine_under_test m;
  m.start_running();
  m.at(1s, runner_load_observed{2u});
  m.at(2s, start("a"));
  CHECK(m.state().jobs_running == 2u);
  m.at(3s, runner_load_observed{0u});  // the metrics missed job a
  CHECK(m.state().jobs_running == 1u);
  CHECK(snapshot_of(m.state(), instant{3s}, 1).reported_jobs == std::vector<std::string>{"a"});
}

TEST_CASE("a drain waits for the reported job's end", "[drain][jobs]") {
  machine_under_test m;
  m.start_running();
  m.at(1s, start("build-7"));
  m.at(5s, sigterm());
  m.at(8s, end("build-7"));
  CHECK(m.state().jobs_running == 0u);
  CHECK(m.reports().back() == "the runner's last job finished; waiting for the runner to exit");
  // Its end unreadable (an adopted runner), the report of idleness proves no job was lost.
  CHECK(m.at(9s, runner_exited{100, exit_status{.unknown = true}}).back() == "exit_warden code=0");
}

TEST_CASE("the runner's exit ends its reported jobs", "[drain][jobs]") {
  machine_under_test m;
  m.start_running();
  m.at(1s, start("lost-end"));
  m.at(2s, runner_exited{100, exit_status{.value = 1}});
  CHECK(m.state().jobs_reported.jobs().empty());
  m.at(10s, end("late"));  // no runner alive: dropped
  CHECK(m.reports().back() == "ignored a job report (ended) while no runner runs");
  REQUIRE(m.state().timers.restart_backoff);
  m.at(11s, timer_fired{timer_kind::restart_backoff, m.state().timers.restart_backoff->id});
  m.at(11s, runner_spawned{101});
  CHECK(m.state().jobs_running == 0u);  // the new runner starts with none
}

TEST_CASE("compaction keeps the reported jobs", "[drain][jobs][journal]") {
  const auto config = gitlab_config();
  testing::followed_machine machine{config};
  const instant t{1s};
  (void)machine.step(warden_started{}, t);
  (void)machine.step(runner_spawned{77}, t);
  (void)machine.step(start("a"), t);
  (void)machine.step(start("b"), t);
  (void)machine.step(end("a"), t);
  const auto steps = machine.compacted(t);
  REQUIRE(steps);
  // "a" ended: written again as a job that started and ended, so that it still counts.
  REQUIRE(steps->size() == 5);
  CHECK(steps->at(4).event == drain_event{start("b")});

  testing::followed_machine idle{config};
  (void)idle.step(warden_started{}, t);
  (void)idle.step(runner_spawned{77}, t);
  (void)idle.step(start("a"), t);
  (void)idle.step(end("a"), t);
  const auto idle_steps = idle.compacted(t);
  REQUIRE(idle_steps);
  CHECK(idle_steps->back().event == drain_event{end("")});  // reporting, with no job
}

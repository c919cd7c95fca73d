// The fleet simulation's own tests: determinism (the same seed gives the same bytes), a
// deliberately broken coordinator caught by the invariants, every fault kind reached, an
// instance refresh and a scaling burst with nothing broken, runwardens killed mid-drain
// coming back from their journals, GitHub's busy answers waited out, and the journal it
// writes replaying to its recorded effects.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "src/journal/journal_reader.hpp"
#include "src/journal/journal_replay.hpp"
#include "src/sim/fleet_run.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

fleet_scenario small_fleet() {
  fleet_scenario s;
  s.name = "test";
  s.duration = 40min;
  s.min_size = 2;
  s.max_size = 8;
  s.desired = 4;
  s.heartbeat_timeout = 120s;
  s.jobs_per_minute = 4;
  s.job_duration_min = 60s;
  s.job_duration_max = 6min;
  return s;
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream file{path, std::ios::binary};
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("runwarden-sim-" + std::to_string(::getpid()) + "-" + name);
}

// Lanes where runwarden crashed after its drain began and before it reached gone.
std::size_t crashed_mid_drain(const fleet_timeline& timeline) {
  std::size_t lanes = 0;
  for (const auto& lane : timeline.lanes) {
    std::optional<double> began, gone;
    for (const auto& mark : lane.marks) {
      if (mark.kind == "drain_started" && !began) began = mark.at;
      if (mark.kind == "gone") gone = mark.at;
    }
    const auto in_drain = [&](const timeline_mark& mark) {
      return mark.kind == "runwarden_crash" && began && mark.at > *began &&
             (!gone || mark.at < *gone);
    };
    if (std::ranges::any_of(lane.marks, in_drain)) ++lanes;
  }
  return lanes;
}

std::uint64_t killed(const fleet_report& report) {
  std::uint64_t count = 0;
  for (const auto& [why, n] : report.jobs_killed) count += n;
  return count;
}

}  // namespace

TEST_CASE("the same seed gives the same report, timeline and journal, byte for byte", "[sim]") {
  auto scenario = small_fleet();
  scenario.instance_refresh_at = 10min;
  scenario.faults.api_error_rate = 0.1;
  scenario.faults.latency_max = 500ms;
  const auto first_journal = temp_file("a.journal"), second_journal = temp_file("b.journal");
  const auto first = run_fleet(scenario, {.seed = 7, .journal_file = first_journal.string()});
  const auto second = run_fleet(scenario, {.seed = 7, .journal_file = second_journal.string()});
  CHECK(report_json(first.report) == report_json(second.report));
  CHECK(render_timeline_svg(first.timeline) == render_timeline_svg(second.timeline));
  // The journals differ only in their header's creation time, which the simulation fixes.
  CHECK(file_bytes(first_journal) == file_bytes(second_journal));
  CHECK(std::filesystem::file_size(first_journal) > 100);
  const auto other = run_fleet(scenario, {.seed = 8});
  CHECK(report_json(other.report) != report_json(first.report));
  std::filesystem::remove(first_journal);
  std::filesystem::remove(second_journal);
}

TEST_CASE("the first instance's journal replays to its recorded effects", "[sim]") {
  auto scenario = small_fleet();
  scenario.instance_refresh_at = 5min;
  const auto journal = temp_file("replay.journal");
  const auto run = run_fleet(scenario, {.seed = 3, .journal_file = journal.string()});
  REQUIRE(run.error.empty());
  const auto read = read_journal(journal);
  REQUIRE(read.contents);
  CHECK(read.contents->entries.size() > 5);
  CHECK_FALSE(replay_journal(read.contents->header, read.contents->entries).first_difference);
  std::filesystem::remove(journal);
}

TEST_CASE("a coordinator that forces the runner at once is caught", "[sim]") {
  auto scenario = small_fleet();
  scenario.instance_refresh_at = 10min;
  scenario.jobs_per_minute = 10;
  const auto sound = run_fleet(scenario, {.seed = 11});
  CHECK(sound.report.violations.empty());
  const auto broken = run_fleet(scenario, {.seed = 11, .broken_force_at_once = true});
  REQUIRE_FALSE(broken.report.violations.empty());
  CHECK(broken.report.violations.front().invariant == "job_killed_early");
}

TEST_CASE("faulty seeds reach every fault kind and still break no invariant", "[sim]") {
  auto scenario = small_fleet();
  scenario.instance_refresh_at = 5min;
  scenario.spot_interruptions_per_hour = 4;
  scenario.faults = {.api_error_rate = 0.2,
                     .throttle_rate = 0.2,
                     .busy_rate = 0.3,
                     .drop_rate = 0.05,
                     .latency_max = 1s,
                     .runner_crashes_per_hour = 2,
                     .runwarden_crashes_per_hour = 2,
                     .imds_error_rate = 0.1,
                     .faults_until = 25min};
  std::map<std::string, std::uint64_t> seen, retried;
  std::uint64_t completions_repeated = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    const auto run = run_fleet(scenario, {.seed = seed});
    CHECK(run.report.violations.empty());
    completions_repeated += run.report.lifecycle_completions_repeated;
    for (const auto& [kind, count] : run.report.faults) seen[kind] += count;
    for (const auto& [call, count] : run.report.retries) {
      CHECK(count < run.report.api_calls.at(call));  // a retry is a call, after a first one
      retried[call] += count;
    }
  }
  // Every call runwarden makes was retried somewhere after a fault.
  for (const auto* call : {"CompleteLifecycleAction", "RecordLifecycleActionHeartbeat",
                           "DescribeAutoScalingInstances", "GitLab DELETE"}) {
    CAPTURE(call);
    CHECK(retried[call] > 0);
  }
  for (const auto* kind :
       {"5xx", "dropped", "answer_lost", "throttled", "429", "runner_crash", "runwarden_crash"}) {
    CAPTURE(kind);
    CHECK(seen[kind] > 0);
  }
  // A completion whose answer was lost is asked again, and the group refuses it: still
  // completed at most once, with no invariant broken.
  CHECK(completions_repeated > 0);
}

TEST_CASE("an instance refresh replaces the group without killing a job", "[sim]") {
  auto scenario = small_fleet();
  scenario.instance_refresh_at = 8min;
  scenario.faults.throttle_rate = 0.1;
  const auto run = run_fleet(scenario, {.seed = 2});
  const auto& report = run.report;
  CHECK(report.violations.empty());
  CHECK(killed(report) == 0);
  CHECK(report.lifecycle_timed_out == 0);
  // Four originals drained through their hooks; each hook completed (launch hooks too).
  CHECK(report.drains_by_trigger.at("cloud lifecycle") >= 4);
  CHECK(report.lifecycle_completed == report.instances_launched + report.drains_gone);
  for (std::size_t lane = 0; lane < 4; ++lane) {
    const auto& lifecycle = run.timeline.lanes[lane].lifecycle;
    CHECK(lifecycle.back().state == "Terminated");
  }
}

TEST_CASE("a burst scales the group up within max, then idle instances leave one at a time",
          "[sim]") {
  auto scenario = small_fleet();
  scenario.duration = 80min;
  scenario.scaling = true;
  scenario.jobs_per_minute = 0.5;
  scenario.bursts = {{10min, 80}};
  const auto run = run_fleet(scenario, {.seed = 4});
  CHECK(run.report.violations.empty());
  CHECK(killed(run.report) == 0);
  int peak = 0;
  for (const auto& sample : run.timeline.desired_capacity) peak = std::max(peak, sample.value);
  CHECK(peak > scenario.desired);
  CHECK(peak <= scenario.max_size);
  CHECK(run.timeline.desired_capacity.back().value < peak);  // given back after the burst
  CHECK(run.report.api_calls.contains("TerminateInstanceInAutoScalingGroup"));
}

TEST_CASE("runwardens killed mid-drain come back from their journals and finish the drain",
          "[sim]") {
  auto scenario = small_fleet();
  scenario.instance_refresh_at = 8min;
  scenario.jobs_per_minute = 6;
  scenario.faults.runwarden_crashes_per_hour = 12;
  scenario.faults.runwarden_restart_after = 20s;
  scenario.faults.faults_until = 30min;  // liveness: every drain must end
  std::size_t mid_drain = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    const auto run = run_fleet(scenario, {.seed = seed});
    CHECK(run.report.violations.empty());
    CHECK(killed(run.report) == 0);
    CHECK(run.report.faults.at("runwarden_crash") > 0);
    CHECK(run.report.lifecycle_timed_out == 0);
    CHECK(run.report.drains_gone >= 4);
    mid_drain += crashed_mid_drain(run.timeline);
  }
  CHECK(mid_drain > 0);
}

TEST_CASE("a journal that spans a crash replays, for whichever instance is asked for", "[sim]") {
  auto scenario = small_fleet();
  scenario.instance_refresh_at = 8min;
  scenario.faults.runwarden_crashes_per_hour = 12;
  const auto first = run_fleet(scenario, {.seed = 5});
  std::string crashed;  // an original instance (it drained) whose runwarden crashed
  for (std::size_t lane = 0; lane < 4 && crashed.empty(); ++lane)
    for (const auto& mark : first.timeline.lanes[lane].marks)
      if (mark.kind == "runwarden_crash") crashed = first.timeline.lanes[lane].instance_id;
  REQUIRE_FALSE(crashed.empty());
  const auto journal = temp_file("crashed.journal");
  const auto run = run_fleet(
      scenario, {.seed = 5, .journal_file = journal.string(), .journal_instance = crashed});
  REQUIRE(run.error.empty());
  const auto read = read_journal(journal);
  REQUIRE(read.contents);
  CHECK(read.contents->entries.size() > 5);
  CHECK_FALSE(replay_journal(read.contents->header, read.contents->entries).first_difference);
  drain_machine machine{read.contents->header.config};  // the drain it records ended
  for (const auto& entry : read.contents->entries) (void)machine.step(entry.event, entry.at);
  CHECK(machine.state().status == warden_status::gone);
  const auto missing = run_fleet(
      scenario, {.seed = 5, .journal_file = journal.string(), .journal_instance = "i-999999"});
  CHECK_THAT(missing.error, Catch::Contains("no journal for instance \"i-999999\""));
  std::filesystem::remove(journal);
}

TEST_CASE("GitHub runners: 422 busy answers are waited out and every runner is unregistered",
          "[sim]") {
  auto scenario = small_fleet();
  scenario.api = runner_api::github;
  scenario.concurrency = 1;  // an Actions runner runs one job at a time
  scenario.jobs_per_minute = 0.8;
  scenario.instance_refresh_at = 8min;
  scenario.faults.busy_rate = 0.5;
  const auto run = run_fleet(scenario, {.seed = 6});
  const auto& report = run.report;
  CHECK(report.violations.empty());
  CHECK(killed(report) == 0);
  CHECK(report.faults.at("422") > 0);
  CHECK_FALSE(report.api_calls.contains("GitLab DELETE"));
  CHECK(report.api_calls.at("GitHub GET runners") >= report.drains_gone);
  // Every drained runner was deleted at GitHub once busy answers stopped.
  std::size_t unregistered = 0;
  for (const auto& lane : run.timeline.lanes)
    unregistered += static_cast<std::size_t>(std::ranges::count_if(
        lane.marks, [](const timeline_mark& mark) { return mark.kind == "unregistered"; }));
  CHECK(unregistered == report.drains_gone);
  CHECK(report.drains_gone >= 4);
}

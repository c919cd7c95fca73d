// The clouds of the simulated world: first the world alone, driven by hand as runwarden would
// drive it, its answers read with runwarden's own parsers (an Azure approval or an Auto
// Scaling terminate hook's completion before the runner is gone is caught, and so is a second
// runner or a fresh one during a drain; a waiting Google read is answered by the preemption,
// not before); then whole fleets, where the production watchers hear each cloud's warning and
// every event is approved once, after its runner is gone.
#include <catch2/catch.hpp>

#include <csignal>
#include <optional>

#include "src/azure/azure_documents.hpp"
#include "src/sim/fleet_checker.hpp"
#include "src/sim/fleet_run.hpp"
#include "src/sim/fleet_world.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

fleet_scenario cloud_fleet(fleet_cloud cloud) {
  fleet_scenario s;
  s.name = "cloud";
  s.cloud = cloud;
  s.launch_hook = false;
  s.duration = 25min;
  s.min_size = 1;
  s.max_size = 6;
  s.desired = 4;
  s.jobs_per_minute = 4;
  s.job_duration_min = 60s;
  s.job_duration_max = 4min;
  return s;
}

http_request azure_request(std::string method, std::string body = {}) {
  return {.id = 1,
          .method = std::move(method),
          .url = "http://azure.sim/metadata/scheduledevents?api-version=2020-07-01",
          .headers = {{"Metadata", "true"}},
          .body = std::move(body)};
}

http_request gcp_read(const std::string& query) {
  return {.id = 1,
          .method = "GET",
          .url = "http://gcp.sim/computeMetadata/v1/instance/preempted" + query,
          .headers = {{"Metadata-Flavor", "Google"}}};
}

std::string header(const http_response& response, const std::string& name) {
  for (const auto& [key, value] : response.headers)
    if (key == name) return value;
  return {};
}

// Boots the world's instances with a runner each, spawned and released from its start gate
// as runwarden would.
void boot_all(fleet_world& world, sim_seconds until) {
  world.on_boot = [&world](std::size_t index) {
    world.release_runner(index, world.spawn_runner(index, 0), true, 0);
  };
  for (sim_seconds now = 0; now <= until; ++now) world.tick(now);
}

// A world booted to `at`, in which the victim's runner then drained (SIGQUIT) and, having
// no jobs, exited a second later.
void drain_runner(fleet_world& world, std::size_t victim, sim_seconds at) {
  boot_all(world, at);
  world.signal_runner(victim, SIGQUIT, at);
  world.tick(at + 1);
  CHECK_FALSE(world.instances()[victim].runner.alive);
}

const http_request gitlab_unregister{
    .id = 2, .method = "DELETE", .url = "http://gitlab.sim/api/v4/runners"};

std::size_t count_marks(const fleet_timeline& timeline, const std::string& kind) {
  std::size_t count = 0;
  for (const auto& lane : timeline.lanes)
    count += static_cast<std::size_t>(std::ranges::count_if(
        lane.marks, [&](const timeline_mark& mark) { return mark.kind == kind; }));
  return count;
}

}  // namespace

TEST_CASE(
    "azure world: an approval before the runner is gone is a violation, one after it is "
    "not, and the VM goes at once",
    "[sim][azure]") {
  auto scenario = cloud_fleet(fleet_cloud::azure);
  scenario.desired = 2;
  scenario.jobs_per_minute = 0;
  scenario.capacity_changes = {{90s, 1}};
  fleet_world world{scenario, 1};
  boot_all(world, 90);
  const auto events = world.answer(0, azure_request("GET"), 90);
  REQUIRE(events.response);
  const auto parsed = parse_azure_scheduled_events(events.response->body);
  INFO(events.response->body);
  REQUIRE(parsed.document);
  REQUIRE(parsed.document->events.size() == 1);
  const auto& event = parsed.document->events.front();
  CHECK(event.type == azure_event_type::terminate);
  REQUIRE(event.resources.size() == 1);
  const auto victim = event.resources.front() == world.instances()[0].id ? 0u : 1u;
  CHECK(event.not_before == sim_wall_time(90 + 300));
  const auto approval = azure_start_requests_body({event.event_id});

  // Approved while its runner runs: Azure would take the VM, and the invariant says so.
  CHECK(world.answer(victim, azure_request("POST", approval), 91).response->status_code == 200);
  REQUIRE(world.checker().violations().size() == 1);
  CHECK(world.checker().violations().front().invariant == "approved_before_gone");

  // A second world, the same moment: the runner drained and unregistered first.
  fleet_world sound{scenario, 1};
  drain_runner(sound, victim, 90);
  CHECK(sound.answer(victim, gitlab_unregister, 92).response->status_code == 204);
  CHECK(sound.answer(victim, azure_request("POST", approval), 93).response->status_code == 200);
  CHECK(sound.checker().violations().empty());
  CHECK(sound.books().lifecycle_completed == 1);
  const auto started = parse_azure_scheduled_events(
      sound.answer(1 - victim, azure_request("GET"), 93).response->body);
  REQUIRE(started.document);
  CHECK(started.document->incarnation > parsed.document->incarnation);
  CHECK(started.document->events.front().status == azure_event_status::started);
  sound.tick(94);
  CHECK(sound.instances()[victim].gone);  // taken once its only event was approved
  // The event left the document with its VM; approving it again names an unknown event.
  CHECK(sound.answer(1 - victim, azure_request("POST", approval), 95).response->status_code == 400);
}

TEST_CASE(
    "aws world: a terminate hook completed before its runner is gone is a violation, "
    "one completed after it is not, and the instance goes at once",
    "[sim][aws]") {
  auto scenario = cloud_fleet(fleet_cloud::aws);
  scenario.desired = 2;
  scenario.jobs_per_minute = 0;
  scenario.capacity_changes = {{90s, 1}};
  const auto complete = [](const fleet_world& world, std::size_t victim) {
    return http_request{.id = 3,
                        .method = "POST",
                        .url = "http://autoscaling.sim/",
                        .body =
                            "Action=CompleteLifecycleAction&AutoScalingGroupName=sim-fleet"
                            "&LifecycleHookName=sim-terminate&LifecycleActionResult=CONTINUE"
                            "&InstanceId=" +
                            world.instances()[victim].id + "&Version=2011-01-01"};
  };
  const auto terminating = [](const fleet_world& world) {
    for (std::size_t i = 0; i < world.instances().size(); ++i)
      if (world.instances()[i].lifecycle_state == "Terminating:Wait") return i;
    FAIL("no instance is terminating");
    return std::size_t{0};
  };

  // Completed while its runner runs: the group would take the instance, jobs and all.
  fleet_world world{scenario, 1};
  boot_all(world, 90);
  const auto victim = terminating(world);
  CHECK(world.answer(victim, complete(world, victim), 91).response->status_code == 200);
  REQUIRE(world.checker().violations().size() == 1);
  CHECK(world.checker().violations().front().invariant == "completed_before_gone");

  // Completed once the runner exited, but while it is still registered: a runner left behind.
  fleet_world registered{scenario, 1};
  drain_runner(registered, victim, 90);
  CHECK(registered.answer(victim, complete(registered, victim), 92).response->status_code == 200);
  REQUIRE(registered.checker().violations().size() == 1);
  CHECK(registered.checker().violations().front().detail.ends_with("still registered"));

  // The same moment in a third world: the runner drained and unregistered first.
  fleet_world sound{scenario, 1};
  drain_runner(sound, victim, 90);
  CHECK(sound.answer(victim, gitlab_unregister, 92).response->status_code == 204);
  CHECK(sound.answer(victim, complete(sound, victim), 93).response->status_code == 200);
  CHECK(sound.checker().violations().empty());
  CHECK(sound.books().lifecycle_completed == 1);
  sound.tick(94);
  CHECK(sound.instances()[victim].gone);
}

TEST_CASE(
    "world: a runner started beside a live one, or a fresh one during a drain, is a "
    "violation; a restart before any drain is not",
    "[sim]") {
  auto scenario = cloud_fleet(fleet_cloud::aws);
  scenario.desired = 1;
  scenario.jobs_per_minute = 0;
  fleet_world world{scenario, 1};
  bool draining = false;
  world.draining_of = [&](std::size_t) { return draining; };
  boot_all(world, 90);
  REQUIRE(world.instances()[0].runner.alive);

  (void)world.spawn_runner(0, 91);
  REQUIRE(world.checker().violations().size() == 1);
  CHECK(world.checker().violations().back().invariant == "two_runners");

  world.signal_runner(0, SIGKILL, 92);  // the runner crashed; no drain yet: restarting is right
  world.release_runner(0, world.spawn_runner(0, 93), true, 93);
  CHECK(world.checker().violations().size() == 1);

  draining = true;  // a drain began, without a deadline (none is needed to catch it)
  world.signal_runner(0, SIGQUIT, 94);
  world.tick(95);  // no jobs: the draining runner exits
  REQUIRE_FALSE(world.instances()[0].runner.alive);
  (void)world.spawn_runner(0, 96);
  REQUIRE(world.checker().violations().size() == 2);
  CHECK(world.checker().violations().back().invariant == "runner_started_in_drain");
}

TEST_CASE(
    "world: a signal that kills jobs is judged against the deadline published in the "
    "same instant, in whichever order the two were heard",
    "[sim]") {
  auto scenario = cloud_fleet(fleet_cloud::azure);
  scenario.desired = 2;
  scenario.jobs_per_minute = 30;
  fleet_world world{scenario, 1};
  std::optional<sim_seconds> deadline;
  world.drain_deadline_of = [&](std::size_t) { return deadline; };
  sim_seconds now = 60;
  boot_all(world, now);
  const auto busy = [&] {
    return !world.instances()[0].runner.jobs.empty() && !world.instances()[1].runner.jobs.empty();
  };
  while (!busy() && now < 600) world.tick(++now);
  REQUIRE(busy());

  // A notice seen after its deadline: the warden signals at once and publishes the past
  // deadline in the same step; the world heard the signal first.
  world.signal_runner(0, SIGTERM, now);
  CHECK(world.checker().violations().empty());
  deadline = now - 3;
  world.judge_killing_signals();
  CHECK(world.checker().violations().empty());

  // A deadline still ahead when the jobs were killed is a violation.
  deadline = now + 60;
  world.signal_runner(1, SIGTERM, now);
  world.judge_killing_signals();
  REQUIRE(world.checker().violations().size() == 1);
  CHECK(world.checker().violations().front().invariant == "job_killed_early");
}

TEST_CASE(
    "world: with the faults over, a terminate hook that runs out under a live runner is "
    "a violation; while faults last it is not",
    "[sim][liveness]") {
  auto scenario = cloud_fleet(fleet_cloud::aws);
  scenario.desired = 2;
  scenario.jobs_per_minute = 0;
  scenario.heartbeat_timeout = 120s;
  scenario.capacity_changes = {{90s, 1}};
  const auto run_out = [&](std::optional<std::chrono::seconds> faults_until) {
    scenario.faults.faults_until = faults_until;
    fleet_world world{scenario, 1};
    boot_all(world, 90);  // the scale-in begins a terminate hook; nobody heartbeats it
    for (sim_seconds now = 91; now <= 90 + 121; ++now) world.tick(now);
    return world.checker().violations();
  };
  const auto liveness = run_out(0s);
  REQUIRE(liveness.size() == 1);
  CHECK(liveness.front().invariant == "hook_timed_out_running");
  CHECK(run_out(std::nullopt).empty());  // safety mode: faults throughout
  CHECK(run_out(100s).empty());          // faults within the heartbeat window
}

TEST_CASE("world: a runner at its start gate takes no job until released", "[sim]") {
  auto scenario = cloud_fleet(fleet_cloud::aws);
  scenario.desired = 1;
  scenario.jobs_per_minute = 30;
  fleet_world world{scenario, 1};
  std::optional<std::int64_t> pid;
  world.on_boot = [&](std::size_t index) { pid = world.spawn_runner(index, 0); };
  sim_seconds now = 0;
  for (; now <= 180; ++now) world.tick(now);
  REQUIRE(pid);
  const auto& runner = world.instances()[0].runner;
  CHECK(runner.alive);
  CHECK(runner.jobs.empty());
  CHECK_FALSE(world.instances()[0].registered);
  world.release_runner(0, *pid, true, now);
  for (const auto until = now + 10; now <= until; ++now) world.tick(now);
  CHECK_FALSE(runner.jobs.empty());
}

TEST_CASE(
    "gcp world: a waiting read is answered by the preemption, not before, and a stale "
    "ETag or a timeout answers at once",
    "[sim][gcp]") {
  auto scenario = cloud_fleet(fleet_cloud::gcp);
  scenario.desired = 1;
  scenario.jobs_per_minute = 0;
  scenario.spot_interruptions_per_hour = 600;  // one within seconds
  fleet_world world{scenario, 3};
  world.on_boot = [&world](std::size_t index) { (void)world.spawn_runner(index, 0); };
  world.tick(0);
  const auto first = world.answer(0, gcp_read(""), 0);
  REQUIRE(first.response);
  CHECK(first.response->body == "FALSE");
  CHECK(header(*first.response, "metadata-flavor") == "Google");
  const auto etag = header(*first.response, "etag");
  REQUIRE_FALSE(etag.empty());

  const auto stale = world.answer(0, gcp_read("?wait_for_change=true&last_etag=0"), 0);
  REQUIRE(stale.response);  // the value already differs from that ETag
  CHECK(stale.response->body == "FALSE");

  std::vector<http_response> answers;
  const auto recorded = [&answers](http_response response) { answers.push_back(response); };
  const auto quiet = world.answer(
      0, gcp_read("?wait_for_change=true&timeout_sec=30&last_etag=" + etag), 0, recorded);
  CHECK(quiet.held);
  sim_seconds now = 1;
  for (; now <= 30; ++now) world.tick(now);
  REQUIRE(answers.size() == 1);  // the timeout, with the value unchanged
  CHECK(answers.front().body == "FALSE");
  CHECK(header(answers.front(), "etag") == etag);

  answers.clear();
  CHECK(world
            .answer(0, gcp_read("?wait_for_change=true&timeout_sec=3600&last_etag=" + etag), now,
                    recorded)
            .held);
  for (; world.books().spot_interruptions == 0 && now < 600; ++now) {
    CHECK(answers.empty());
    world.tick(now);
  }
  REQUIRE(world.books().spot_interruptions == 1);
  REQUIRE(answers.size() == 1);  // in the preemption's own tick
  CHECK(answers.front().body == "TRUE");
  CHECK(header(answers.front(), "etag") != etag);

  const auto stranger =
      world.answer(0, http_request{.id = 3, .method = "GET", .url = gcp_read("").url}, now);
  CHECK(stranger.response->status_code == 403);
}

TEST_CASE(
    "an Azure scale set: every event is approved once, after its runner is gone and "
    "unregistered",
    "[sim][azure]") {
  auto scenario = cloud_fleet(fleet_cloud::azure);
  scenario.spot_share = 0.5;
  scenario.spot_interruptions_per_hour = 12;
  scenario.capacity_changes = {{6min, 2}};
  scenario.poll_interval = 1s;
  std::uint64_t approved = 0, preempted = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    const auto run = run_fleet(scenario, {.seed = seed});
    const auto& report = run.report;
    CHECK(report.violations.empty());
    CHECK(report.lifecycle_completions_repeated == 0);  // no faults: each approval once
    approved += report.lifecycle_completed;
    preempted += report.drains_by_trigger.contains("Azure Preempt") ? 1 : 0;
    for (const auto& lane : run.timeline.lanes) {
      std::optional<double> unregistered, completed;
      for (const auto& mark : lane.marks) {
        if (mark.kind == "unregistered") unregistered = mark.at;
        if (mark.kind == "completed") completed = mark.at;
      }
      if (!completed) continue;
      CAPTURE(lane.instance_id);
      REQUIRE(unregistered);
      CHECK(*unregistered <= *completed);
      REQUIRE_FALSE(lane.runner.empty());
      CHECK(lane.runner.back().state == "exited");
      CHECK(lane.runner.back().from <= *completed);
    }
    CHECK(count_marks(run.timeline, "completed") == report.lifecycle_completed);
  }
  CHECK(approved >= 3);  // the scale-in's Terminate events at least
  CHECK(preempted > 0);
}

TEST_CASE(
    "a Google managed instance group: preemptions are heard through waiting reads, "
    "scale-ins through SIGTERM",
    "[sim][gcp]") {
  auto scenario = cloud_fleet(fleet_cloud::gcp);
  scenario.spot_interruptions_per_hour = 12;
  scenario.capacity_changes = {{6min, 2}};
  std::uint64_t preemptions = 0, signals = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    const auto run = run_fleet(scenario, {.seed = seed});
    const auto& report = run.report;
    CHECK(report.violations.empty());
    CHECK(report.jobs_killed.count("the VM's shutdown period ran out") == 0);
    const auto trigger = [&](const char* name) {
      return report.drains_by_trigger.contains(name) ? report.drains_by_trigger.at(name) : 0;
    };
    preemptions += trigger("Google Cloud preemption");
    signals += trigger("SIGTERM");
    CHECK(trigger("Google Cloud preemption") == report.spot_interruptions);
  }
  CHECK(preemptions > 0);
  CHECK(signals > 0);  // the scale-ins
}

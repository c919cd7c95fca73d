// A host's own requests and log, against the demo runner: a request is the
// host's trigger, named so in the status and the log, never "control API", which an
// embedded instance has none of; a request after gone is refused, not accepted and dropped;
// runwarden's log lines reach the host's sink at the [log] level, none after stop().
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "caf/all.hpp"
#include "runwarden/config.hpp"
#include "runwarden/instance.hpp"
#include "tests/embedding/host_side.hpp"

namespace {

using namespace runwarden::embedded;
using namespace runwarden::embedded::testing;

}  // namespace

TEST_CASE("a host's request drains as the host's trigger, and one after gone is refused",
          "[embedding][process]") {
  scratch_directory state;
  auto log = std::make_shared<captured_log>();
  auto settings = demo_config(state);
  settings.set_log_sink(captured_log::sink_into(log));
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  caf::scoped_actor host{system};
  auto started = instance::start(system, settings);
  REQUIRE(started.error.empty());
  auto& warden = *started.instance;
  warden.subscribe(caf::actor_cast<caf::actor>(host));
  statuses_until(host, runner_runs);

  REQUIRE(warden.request_shutdown({.reason = "host done", .forceful = true}).empty());
  const auto end = statuses_until(host, gone).back();
  CHECK(end.trigger == shutdown_trigger::host);
  CHECK(to_string(*end.trigger) == "host");
  CHECK(log->any("requested by the host program"));
  CHECK_FALSE(log->any("control API"));

  bool called = false;
  CHECK(warden.request_shutdown({.reason = "again", .on_gone = [&](const status&) {
                                   called = true;
                                 }}) == "the runner is gone already: nothing to shut down");
  CHECK_FALSE(called);
  warden.stop();
}

TEST_CASE("runwarden's log lines go to the host's sink at the [log] level, none after stop()",
          "[embedding][process]") {
  scratch_directory state;
  auto log = std::make_shared<captured_log>();
  auto settings = demo_config(state, "[log]\nlevel = \"warn\"\n");
  settings.set_log_sink(captured_log::sink_into(log));
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  caf::scoped_actor host{system};
  auto started = instance::start(system, settings);
  REQUIRE(started.error.empty());
  started.instance->subscribe(caf::actor_cast<caf::actor>(host));
  statuses_until(host, runner_runs);
  // A forceful drain says a warning; its "drain requested by" line is info, below the level.
  REQUIRE(started.instance->request_shutdown({.reason = "log", .forceful = true}).empty());
  statuses_until(host, gone);
  started.instance->stop();

  const auto lines = log->copy();
  REQUIRE_FALSE(lines.empty());
  for (const auto& line : lines) {
    CAPTURE(line.logger, line.text);
    CHECK(line.level >= log_level::warning);
    CHECK((line.logger == "warden" || line.logger == "runner"));
  }
  CHECK(log->any("forceful shutdown requested: stopping the runner now"));
  CHECK_FALSE(log->any("drain requested by"));
  // Nothing comes after stop(): the host may let its sink's captures go.
  const auto count = lines.size();
  auto next = instance::start(system, demo_config(state));
  REQUIRE(next.error.empty());
  next.instance->subscribe(caf::actor_cast<caf::actor>(host));
  statuses_until(host, runner_runs);
  next.instance->request_shutdown({.reason = "next", .forceful = true});
  statuses_until(host, gone);
  next.instance->stop();
  CHECK(log->copy().size() == count);
}

TEST_CASE("a host's own log level lets runwarden's info lines through to its sink",
          "[embedding][process]") {
  scratch_directory state;
  auto log = std::make_shared<captured_log>();
  auto settings = demo_config(state, "[log]\nlevel = \"info\"\n");
  settings.set_log_sink(captured_log::sink_into(log));
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  caf::scoped_actor host{system};
  auto started = instance::start(system, settings);
  REQUIRE(started.error.empty());
  started.instance->subscribe(caf::actor_cast<caf::actor>(host));
  statuses_until(host, runner_runs);
  // The runner's output arrives line by line under its own logger (the demo runner writes
  // a progress line every 0.25 s), awaited, bounded.
  const auto from_runner = [&log] {
    const auto lines = log->copy();
    return std::any_of(lines.begin(), lines.end(),
                       [](const captured_log::line& line) { return line.logger == "runner"; });
  };
  const auto give_up = std::chrono::steady_clock::now() + status_wait_max;
  while (!from_runner() && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds{20});
  CHECK(from_runner());
  started.instance->request_shutdown({.reason = "log", .forceful = true});
  statuses_until(host, gone);
  started.instance->stop();
  const auto lines = log->copy();
  CHECK(std::any_of(lines.begin(), lines.end(), [](const captured_log::line& line) {
    return line.level == log_level::info && line.text.find("runner started, pid") == 0;
  }));
}

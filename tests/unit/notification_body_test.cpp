// The webhook body is parsed back with nlohmann-json and checked field by field, for a drain
// that has just started and for a finished one, with steady instants converted to wall time
// through a fixed reference, so every timestamp has one exact expected text.

#include "src/webhook/notification_body.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>

#include "src/util/rfc3339_time.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using json = nlohmann::json;

// 2024-05-01T12:00:00Z, matching the snapshot's steady "now" of 1000 s.
const std::chrono::system_clock::time_point wall_now{std::chrono::seconds{1714564800}};

warden_snapshot draining_snapshot() {
  warden_snapshot snapshot;
  snapshot.now = 1000s;
  snapshot.status = warden_status::shutting_down;
  snapshot.status_since = 990s;
  snapshot.phase = drain_phase::draining;
  snapshot.drain_started_at = 990s;
  snapshot.drain_deadline = 1990s + 250ms;
  snapshot.trigger = trigger_source::signal_terminate;
  snapshot.reason = "scale-in \"asg\"";
  return snapshot;
}

}  // namespace

TEST_CASE("format_rfc3339_utc writes UTC with milliseconds", "[webhook]") {
  CHECK(format_rfc3339_utc(wall_now) == "2024-05-01T12:00:00.000Z");
  CHECK(format_rfc3339_utc(wall_now + 1234ms) == "2024-05-01T12:00:01.234Z");
  CHECK(format_rfc3339_utc(std::chrono::system_clock::time_point{}) == "1970-01-01T00:00:00.000Z");
  CHECK(wall_time_of(990s, 1000s, wall_now) == wall_now - 10s);
}

TEST_CASE("drain_started body: event, state, phase, reason, trigger, times", "[webhook]") {
  const auto text =
      notification_body(notification_kind::drain_started, draining_snapshot(), wall_now, "0.1.0");
  const auto body = json::parse(text);
  CHECK(body["event"] == "drain_started");
  CHECK(body["state"] == "shutting_down");
  CHECK(body["phase"] == "draining");
  CHECK(body["reason"] == "scale-in \"asg\"");
  CHECK(body["trigger"] == "sigterm");
  CHECK(body["runner_exit"].is_null());
  CHECK(body["exit_code"].is_null());
  CHECK(body["exit_reason"].is_null());
  CHECK(body["runner_restarts"] == 0);
  CHECK(body["time"] == "2024-05-01T12:00:00.000Z");
  CHECK(body["status_since"] == "2024-05-01T11:59:50.000Z");
  CHECK(body["drain_started_at"] == "2024-05-01T11:59:50.000Z");
  CHECK(body["drain_deadline"] == "2024-05-01T12:16:30.250Z");
  CHECK(body["runwarden_version"] == "0.1.0");
  CHECK_FALSE(body.contains("instance_id"));  // unknown until a cloud provider tells it
}

TEST_CASE("gone body: the runner's exit and runwarden's own exit code", "[webhook]") {
  auto snapshot = draining_snapshot();
  snapshot.status = warden_status::gone;
  snapshot.phase = drain_phase::done;
  snapshot.last_exit = exit_status{.signaled = true, .value = SIGKILL};
  snapshot.exit_code = 137;
  snapshot.exit_reason = "runner killed";
  snapshot.drain_deadline = std::nullopt;
  snapshot.restarts_total = 2;
  const auto body =
      json::parse(notification_body(notification_kind::gone, snapshot, wall_now, "0.1.0"));
  CHECK(body["event"] == "gone");
  CHECK(body["state"] == "gone");
  CHECK(body["phase"] == "done");
  CHECK(body["runner_exit"]["code"] == 137);
  CHECK(body["runner_exit"]["signal"] == "SIGKILL");
  CHECK(body["runner_exit"]["text"] == "killed by SIGKILL");
  CHECK(body["exit_code"] == 137);
  CHECK(body["exit_reason"] == "runner killed");
  CHECK(body["runner_restarts"] == 2);
  CHECK(body["drain_deadline"].is_null());
}

TEST_CASE("the instance and its Auto Scaling group are there once known", "[webhook]") {
  auto snapshot = draining_snapshot();
  snapshot.instance_id = "i-0abc";
  const auto identified =
      json::parse(notification_body(notification_kind::hook_expiring, snapshot, wall_now, "0.1.0"));
  CHECK(identified["event"] == "hook_expiring");
  CHECK(identified["instance_id"] == "i-0abc");
  CHECK_FALSE(identified.contains("auto_scaling_group"));
  snapshot.auto_scaling_group = "ci-runners";
  const auto grouped =
      json::parse(notification_body(notification_kind::gone, snapshot, wall_now, "0.1.0"));
  CHECK(grouped["instance_id"] == "i-0abc");
  CHECK(grouped["auto_scaling_group"] == "ci-runners");
}

TEST_CASE("a normal exit has no signal, no trigger is null", "[webhook]") {
  auto snapshot = draining_snapshot();
  snapshot.trigger = std::nullopt;
  snapshot.last_exit = exit_status{.signaled = false, .value = 3};
  const auto body =
      json::parse(notification_body(notification_kind::gone, snapshot, wall_now, "x"));
  CHECK(body["trigger"].is_null());
  CHECK(body["runner_exit"]["code"] == 3);
  CHECK(body["runner_exit"]["signal"].is_null());
}

TEST_CASE("trigger tokens are stable words", "[webhook]") {
  CHECK(trigger_token(trigger_source::signal_interrupt) == "sigint");
  CHECK(trigger_token(trigger_source::signal_quit) == "sigquit");
  CHECK(trigger_token(trigger_source::control_api) == "control_api");
  CHECK(trigger_token(trigger_source::cloud_lifecycle) == "cloud_lifecycle");
  CHECK(trigger_token(trigger_source::idle_scale_in) == "idle_scale_in");
  CHECK(trigger_token(trigger_source::spot_interruption) == "spot_interruption");
  CHECK(trigger_token(trigger_source::rebalance_recommendation) == "rebalance_recommendation");
}

TEST_CASE("invalid UTF-8 in the reason is replaced, not thrown", "[webhook]") {
  auto snapshot = draining_snapshot();
  snapshot.reason = "bad \xff byte";
  const auto text = notification_body(notification_kind::drain_started, snapshot, wall_now, "x");
  CHECK(json::parse(text)["reason"] == "bad \xef\xbf\xbd byte");
}

TEST_CASE("an unknown end has no code and says it is unknown", "[webhook]") {
  auto snapshot = draining_snapshot();
  snapshot.status = warden_status::gone;
  snapshot.last_exit = exit_status{.unknown = true};
  snapshot.exit_code = runner_end_unknown_exit_code;
  const auto body =
      json::parse(notification_body(notification_kind::gone, snapshot, wall_now, "x"));
  CHECK(body["runner_exit"]["code"].is_null());
  CHECK(body["runner_exit"]["signal"].is_null());
  CHECK(body["runner_exit"]["unknown"] == true);
  CHECK(body["runner_exit"]["text"] == "exit status unknown");
  CHECK(body["exit_code"] == 75);
}

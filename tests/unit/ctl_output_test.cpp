// What `runwarden ctl status` shows of the gRPC Status: every field of the runner's last exit
// (`unknown` was dropped from --json, so a script read an unknown end as a real code
// 75), and times without the clocks' noise.
#include <catch2/catch.hpp>

#include <google/protobuf/util/time_util.h>

#include "src/app/ctl_output.hpp"
#include "src/control/snapshot_wire.hpp"

TEST_CASE("ctl status --json: the last exit says whether its status is unknown", "[ctl]") {
  runwarden::v1::StatusResponse status;
  auto& last_exit = *status.mutable_last_exit();
  last_exit.set_unknown(true);
  last_exit.set_value(75);
  last_exit.set_text("unknown");
  const auto json = runwarden::status_json(status);
  CHECK(json.at("last_exit").at("unknown") == true);
  CHECK(json.at("last_exit").at("value") == 75);

  last_exit.set_unknown(false);
  last_exit.set_value(0);
  CHECK(runwarden::status_json(status).at("last_exit").at("unknown") == false);
}

// The deadline of a spot notice set at a whole second reads as that second, though the
// actor clock and the wall clock are read a few hundred nanoseconds apart.
TEST_CASE("status deadlines carry no clock noise below the millisecond", "[ctl]") {
  using namespace std::chrono;
  runwarden::warden_snapshot snapshot;
  snapshot.now = runwarden::instant{seconds{1000} + nanoseconds{221}};
  snapshot.drain_deadline = runwarden::instant{seconds{1120}};
  const auto wall_now = system_clock::time_point{seconds{1'800'000'000}};
  const auto response = runwarden::status_response_of(snapshot, wall_now);
  CHECK(google::protobuf::util::TimeUtil::ToString(response.deadline()) == "2027-01-15T08:02:00Z");
}

// Issue 31: status said "deadline in 0s" nine minutes after the deadline, while the wind-down
// still waited on an endpoint that never answered.
TEST_CASE("a deadline that has passed reads as passed, with how long ago", "[ctl]") {
  using google::protobuf::util::TimeUtil;
  runwarden::v1::StatusResponse status;
  status.set_state(runwarden::v1::STATE_SHUTTING_DOWN);
  *status.mutable_drain_started_at() = TimeUtil::SecondsToTimestamp(1000);
  *status.mutable_deadline() = TimeUtil::SecondsToTimestamp(1120);
  *status.mutable_observed_at() = TimeUtil::SecondsToTimestamp(1060);
  CHECK_THAT(runwarden::change_line(status), Catch::Contains("deadline in 1m"));
  *status.mutable_observed_at() = TimeUtil::SecondsToTimestamp(1660);
  CHECK_THAT(runwarden::change_line(status), Catch::Contains("deadline passed 9m ago"));
  CHECK_THAT(runwarden::status_text(status), Catch::Contains("deadline passed 9m ago"));
}

// Issue 33: the jobs a runner reported show by id, after the count, in text and JSON.
TEST_CASE("ctl status shows the reported jobs", "[ctl]") {
  runwarden::warden_snapshot snapshot;
  snapshot.jobs_running = 2u;
  snapshot.reported_jobs = {"4711-1-build", "4711-1-test"};
  const auto response = runwarden::status_response_of(snapshot, {});
  CHECK(runwarden::status_text(response).find(
            "jobs:      2 (reported: 4711-1-build, 4711-1-test)\n") != std::string::npos);
  CHECK(runwarden::status_json(response).at("reported_jobs") ==
        nlohmann::json::array({"4711-1-build", "4711-1-test"}));
  runwarden::v1::StatusResponse none;
  CHECK(runwarden::status_text(none).find("jobs:      unknown\n") != std::string::npos);
  CHECK(runwarden::status_json(none).at("reported_jobs") == nlohmann::json::array());
}

// The scaling machine driven through sequences of loads, group reads and call outcomes, the
// way the scaler actor drives it: every wake-up the machine asks for is delivered as a tick
// before the next scripted event, and each test reads the decisions as short lines with the
// time they came at ("60s read", "60s scale_up 4"). Jitter is zero unless a case is about it.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/scaling/group_view.hpp"
#include "src/scaling/scaling_decision_text.hpp"
#include "src/scaling/scaling_machine.hpp"
#include "src/scrape/runner_capacity.hpp"

namespace runwarden::testing {
namespace {

using namespace std::chrono_literals;
using lines = std::vector<std::string>;

scaling_policy quick_policy() {
  scaling_policy policy;
  policy.capacity = 2;
  policy.window = 60s;
  policy.dip_tolerance = 20s;
  policy.step = 1;
  policy.idle_threshold = 600s;
  policy.cooldown = 300s;
  policy.jitter = 0s;
  policy.protect_while_busy = false;
  policy.protection_release = 60s;
  policy.protection_interval_min = 30s;
  policy.retry_initial = 10s;
  policy.retry_max = 300s;
  return policy;
}

group_view group(std::int32_t min, std::int32_t desired, std::int32_t max, std::int32_t pending = 0,
                 std::int32_t terminating = 0) {
  return group_view{.group_name = "runners",
                    .min_size = min,
                    .max_size = max,
                    .desired_capacity = desired,
                    .pending = pending,
                    .terminating = terminating,
                    .self_state = "InService",
                    .self_protected = false};
}

std::string short_line(const scaling_decision& decision) {
  if (std::holds_alternative<read_group_now>(decision)) return "read";
  if (const auto* up = std::get_if<scale_up>(&decision))
    return "scale_up " + std::to_string(up->desired_capacity);
  if (std::holds_alternative<scale_in_self>(decision)) return "scale_in";
  if (const auto* protect = std::get_if<protect_self>(&decision))
    return protect->protect ? "protect on" : "protect off";
  if (std::holds_alternative<hold_off>(decision)) return "hold";
  return "note";
}

class scaler_under_test {
 public:
  explicit scaler_under_test(scaling_policy policy = quick_policy(), std::uint64_t seed = 1)
      : state_(initial_scaling_state(policy, seed)) {}

  // Delivers the ticks due up to `at`, then the event; returns every line since the last call.
  lines at(std::chrono::seconds at, const scaling_event& event) {
    until(at);
    deliver(at, event);
    return take();
  }
  lines load(std::chrono::seconds at, std::optional<std::uint32_t> jobs,
             warden_status status = warden_status::running) {
    return this->at(at, load_observed{jobs, status});
  }
  // Delivers the ticks due up to `at`; returns every line since the last call.
  lines run_until(std::chrono::seconds at) {
    until(at);
    return take();
  }

  const scaling_state& state() const { return state_; }
  const std::vector<scaling_decision>& decisions() const { return decisions_; }

 private:
  void until(duration at) {
    while (wake_at_ && *wake_at_ <= at) deliver(*wake_at_, scaling_tick{});
  }
  void deliver(duration at, const scaling_event& event) {
    REQUIRE(at >= now_);
    now_ = at;
    auto result = step(state_, event, at);
    wake_at_ = result.wake_at;
    if (wake_at_) REQUIRE(*wake_at_ > at);
    for (auto& decision : result.decisions) {
      lines_.push_back(
          std::to_string(std::chrono::duration_cast<std::chrono::seconds>(at).count()) + "s " +
          short_line(decision));
      decisions_.push_back(std::move(decision));
    }
  }
  lines take() { return std::exchange(lines_, {}); }

  scaling_state state_;
  duration now_{0};
  std::optional<instant> wake_at_;
  lines lines_;
  std::vector<scaling_decision> decisions_;
};

call_failed failure(scaling_call call, autoscaling_failure_kind kind, std::string code) {
  return call_failed{call, autoscaling_failure{kind, std::move(code), "the call failed"}};
}

}  // namespace

TEST_CASE("saturation sustained over the window scales up by one step", "[scaling]") {
  scaler_under_test scaler;
  CHECK(scaler.load(0s, 2) == lines{});
  CHECK(scaler.run_until(59s) == lines{});
  CHECK(scaler.run_until(60s) == lines{"60s read"});
  CHECK(scaler.at(61s, group_read{group(1, 3, 10)}) == lines{"61s scale_up 4"});
  const auto& up = std::get<scale_up>(scaler.decisions().back());
  CHECK(up.honor_cooldown);
  CHECK(to_string(scaler.decisions().back()).find("runners desired 3 -> 4") != std::string::npos);
}

TEST_CASE("one saturated sample is no saturation", "[scaling]") {
  scaler_under_test scaler;
  CHECK(scaler.load(0s, 2) == lines{});
  CHECK(scaler.load(5s, 1) == lines{});
  CHECK(scaler.run_until(600s) == lines{});
}

TEST_CASE("hysteresis: a dip shorter than the tolerance keeps the saturated spell", "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 2);
  scaler.load(30s, 1);  // a job ended; the next one is picked up within the tolerance
  CHECK(scaler.load(45s, 2) == lines{});
  CHECK(scaler.run_until(60s) == lines{"60s read"});
}

TEST_CASE("hysteresis: a dip longer than the tolerance starts the window again", "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 2);
  scaler.load(30s, 1);  // tolerance 20s: the spell ends at 50s
  CHECK(scaler.load(55s, 2) == lines{});
  CHECK(scaler.run_until(114s) == lines{});
  CHECK(scaler.run_until(115s) == lines{"115s read"});
}

TEST_CASE("a dip still going at the end of the window defers the scale-up until saturation",
          "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 2);
  scaler.load(55s, 1);
  CHECK(scaler.run_until(70s) == lines{});
  CHECK(scaler.load(70s, 2) == lines{"70s read"});
}

TEST_CASE("instances already launching count against the step", "[scaling]") {
  SECTION("as many launching as the step: hold, and read again only after the cooldown") {
    scaler_under_test scaler;
    scaler.load(0s, 2);
    scaler.run_until(60s);
    CHECK(scaler.at(60s, group_read{group(1, 4, 10, 1)}) == lines{"60s hold"});
    CHECK(to_string(scaler.decisions().back()).find("1 instance(s) already launching") !=
          std::string::npos);
    CHECK(scaler.run_until(359s) == lines{});
    CHECK(scaler.run_until(360s) == lines{"360s read"});
  }
  SECTION("fewer launching than the step: only the difference is added") {
    auto policy = quick_policy();
    policy.step = 3;
    scaler_under_test scaler{policy};
    scaler.load(0s, 2);
    scaler.run_until(60s);
    CHECK(scaler.at(60s, group_read{group(1, 4, 10, 1)}) == lines{"60s scale_up 6"});
  }
  SECTION("desired raised by another instance but not yet listed counts as launching") {
    group_view view =
        view_of(auto_scaling_group{.group_name = "runners",
                                   .min_size = 1,
                                   .max_size = 10,
                                   .desired_capacity = 5,
                                   .instances = {{"i-1", "InService", "HEALTHY", false},
                                                 {"i-2", "InService", "HEALTHY", false},
                                                 {"i-3", "Pending:Wait", "HEALTHY", false},
                                                 {"i-4", "Terminating:Wait", "HEALTHY", false}}},
                "i-1");
    CHECK(view.pending == 3);  // i-3, and two wanted but unlisted
    CHECK(view.terminating == 1);
    CHECK(view.self_state == "InService");
  }
}

TEST_CASE("the group's max and the configured ceiling bound the scale-up", "[scaling]") {
  SECTION("at max: hold") {
    scaler_under_test scaler;
    scaler.load(0s, 2);
    scaler.run_until(60s);
    CHECK(scaler.at(60s, group_read{group(1, 10, 10)}) == lines{"60s hold"});
    CHECK(to_string(scaler.decisions().back()).find("at its max (10)") != std::string::npos);
  }
  SECTION("a step past max stops at max") {
    auto policy = quick_policy();
    policy.step = 5;
    scaler_under_test scaler{policy};
    scaler.load(0s, 2);
    scaler.run_until(60s);
    CHECK(scaler.at(60s, group_read{group(1, 8, 10)}) == lines{"60s scale_up 10"});
  }
  SECTION("the ceiling below max") {
    auto policy = quick_policy();
    policy.step = 3;
    policy.ceiling = 5;
    scaler_under_test scaler{policy};
    scaler.load(0s, 2);
    scaler.run_until(60s);
    CHECK(scaler.at(60s, group_read{group(1, 4, 10)}) == lines{"60s scale_up 5"});
  }
  SECTION("at the ceiling: hold") {
    auto policy = quick_policy();
    policy.ceiling = 4;
    scaler_under_test scaler{policy};
    scaler.load(0s, 2);
    scaler.run_until(60s);
    CHECK(scaler.at(60s, group_read{group(1, 4, 10)}) == lines{"60s hold"});
    CHECK(to_string(scaler.decisions().back()).find("configured ceiling (4)") != std::string::npos);
  }
  SECTION("a ceiling below the group's min: hold, saying so") {
    auto policy = quick_policy();
    policy.ceiling = 2;
    scaler_under_test scaler{policy};
    scaler.load(0s, 2);
    scaler.run_until(60s);
    CHECK(scaler.at(60s, group_read{group(3, 3, 10)}) == lines{"60s hold"});
    CHECK(to_string(scaler.decisions().back()).find("ceiling (2) is below runners's min (3)") !=
          std::string::npos);
  }
}

TEST_CASE("after a scale-up the cooldown passes before the group is read again", "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 2);
  scaler.run_until(60s);
  scaler.at(60s, group_read{group(1, 3, 10)});
  CHECK(scaler.at(62s, call_succeeded{scaling_call::scale_up}) == lines{});
  CHECK(scaler.run_until(361s) == lines{});
  CHECK(scaler.run_until(362s) == lines{"362s read"});
}

TEST_CASE("ScalingActivityInProgress and throttling retry later with a growing wait", "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 2);
  scaler.run_until(60s);
  scaler.at(60s, group_read{group(1, 3, 10)});
  CHECK(scaler.at(61s, failure(scaling_call::scale_up, autoscaling_failure_kind::retry_later,
                               "ScalingActivityInProgress")) == lines{"61s note"});
  const auto& first = std::get<scaling_note>(scaler.decisions().back());
  CHECK(first.level == report_level::info);
  CHECK(first.text.find("ScalingActivityInProgress") != std::string::npos);
  const auto first_retry = *scaler.state().quiet_until;
  CHECK(first_retry > duration{61s + 7s});  // 10s, shortened by at most a quarter
  CHECK(first_retry <= duration{61s + 10s});
  auto read = scaler.run_until(std::chrono::duration_cast<std::chrono::seconds>(first_retry) + 1s);
  CHECK(read.size() == 1);
  scaler.at(80s, group_read{group(1, 3, 10)});
  CHECK(scaler.at(81s, failure(scaling_call::scale_up, autoscaling_failure_kind::retry_with_backoff,
                               "Throttling")) == lines{"81s note"});
  CHECK(std::get<scaling_note>(scaler.decisions().back()).level == report_level::warning);
  CHECK(*scaler.state().quiet_until > duration{81s + 15s});  // 20s, shortened by at most 5s
}

TEST_CASE("AccessDenied is an error and waits the longest retry", "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 2);
  scaler.run_until(60s);
  CHECK(scaler.at(60s, failure(scaling_call::read_group, autoscaling_failure_kind::access_denied,
                               "AccessDenied")) == lines{"60s note"});
  CHECK(std::get<scaling_note>(scaler.decisions().back()).level == report_level::error);
  CHECK(scaler.run_until(359s) == lines{});
  CHECK(scaler.run_until(360s) == lines{"360s read"});
}

TEST_CASE("an idle instance gives itself up once, when the group is above its min and at rest",
          "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 0);
  CHECK(scaler.run_until(599s) == lines{});
  CHECK(scaler.run_until(600s) == lines{"600s read"});
  CHECK(scaler.at(600s, group_read{group(1, 3, 10)}) == lines{"600s scale_in"});
  CHECK(scaler.at(601s, call_succeeded{scaling_call::scale_in_self}) == lines{"601s note"});
  CHECK(scaler.state().finished);
  CHECK(scaler.load(700s, 2) == lines{});
  CHECK(scaler.run_until(5000s) == lines{});
}

TEST_CASE("scale-in holds at the group's min and while the group is in motion", "[scaling]") {
  SECTION("at min") {
    scaler_under_test scaler;
    scaler.load(0s, 0);
    scaler.run_until(600s);
    CHECK(scaler.at(600s, group_read{group(2, 2, 10)}) == lines{"600s hold"});
    CHECK(scaler.run_until(899s) == lines{});
    CHECK(scaler.run_until(900s) == lines{"900s read"});
  }
  SECTION("another instance terminating: one at a time") {
    scaler_under_test scaler;
    scaler.load(0s, 0);
    scaler.run_until(600s);
    CHECK(scaler.at(600s, group_read{group(1, 3, 10, 0, 1)}) == lines{"600s hold"});
  }
  SECTION("instances launching") {
    scaler_under_test scaler;
    scaler.load(0s, 0);
    scaler.run_until(600s);
    CHECK(scaler.at(600s, group_read{group(1, 3, 10, 1, 0)}) == lines{"600s hold"});
  }
  SECTION("this instance not InService") {
    scaler_under_test scaler;
    scaler.load(0s, 0);
    scaler.run_until(600s);
    auto view = group(1, 3, 10);
    view.self_state = "Standby";
    CHECK(scaler.at(600s, group_read{view}) == lines{"600s hold"});
  }
}

TEST_CASE("a job that arrives while the group is read cancels the scale-in", "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 0);
  scaler.run_until(600s);
  CHECK(scaler.load(600s, 1) == lines{});
  CHECK(scaler.at(601s, group_read{group(1, 3, 10)}) == lines{"601s note"});
  CHECK(scaler.run_until(2000s) == lines{});
}

TEST_CASE("once a drain has begun nothing is decided, not even with a group read in flight",
          "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 0);
  scaler.run_until(600s);
  CHECK(scaler.load(600s, 0, warden_status::shutting_down) == lines{"600s note"});
  CHECK(scaler.at(601s, group_read{group(1, 3, 10)}) == lines{});
  CHECK(scaler.load(700s, 0) == lines{});
}

TEST_CASE("unknown load neither scales up nor in", "[scaling]") {
  scaler_under_test scaler;
  scaler.load(0s, 2);
  CHECK(scaler.load(30s, std::nullopt) == lines{});
  CHECK(scaler.load(40s, 0, warden_status::starting) == lines{});
  CHECK(scaler.run_until(5000s) == lines{});
}

TEST_CASE("protection goes on at the first job and off once per busy period", "[scaling]") {
  auto policy = quick_policy();
  policy.protect_while_busy = true;
  scaler_under_test scaler{policy};
  CHECK(scaler.load(0s, 0) == lines{});
  CHECK(scaler.load(10s, 1) == lines{"10s protect on"});
  CHECK(scaler.at(11s, call_succeeded{scaling_call::protect}) == lines{});
  CHECK(scaler.load(20s, 2) == lines{});
  CHECK(scaler.load(30s, 0) == lines{});
  CHECK(scaler.load(50s, 1) == lines{});  // idle 20s < release 60s: still one busy period
  CHECK(scaler.load(100s, 0) == lines{});
  CHECK(scaler.run_until(159s) == lines{});
  CHECK(scaler.run_until(160s) == lines{"160s protect off"});
  CHECK(scaler.at(161s, call_succeeded{scaling_call::protect}) == lines{});
  CHECK(scaler.run_until(699s) == lines{});
  CHECK(scaler.run_until(700s) == lines{"700s read"});  // idle since 100s
}

TEST_CASE("scaler = group: protection only, the group's own policies scale", "[scaling]") {
  auto policy = quick_policy();
  policy.protect_while_busy = true;
  policy.decide_capacity = false;  // target tracking on the published job slots decides
  scaler_under_test scaler{policy};
  CHECK(scaler.load(0s, 2) == lines{"0s protect on"});  // saturated: no scale-up read
  CHECK(scaler.at(1s, call_succeeded{scaling_call::protect}) == lines{});
  CHECK(scaler.load(100s, 0) == lines{});
  CHECK(scaler.run_until(160s) == lines{"160s protect off"});
  CHECK(scaler.at(161s, call_succeeded{scaling_call::protect}) == lines{});
  CHECK(scaler.run_until(3600s) == lines{});  // idle for an hour: no scale-in of self
}

TEST_CASE("protection calls are rate limited and coalesced", "[scaling]") {
  auto policy = quick_policy();
  policy.protect_while_busy = true;
  policy.protection_release = 5s;
  policy.protection_interval_min = 30s;
  scaler_under_test scaler{policy};
  CHECK(scaler.load(0s, 1) == lines{"0s protect on"});
  scaler.at(1s, call_succeeded{scaling_call::protect});
  scaler.load(2s, 0);
  CHECK(scaler.run_until(20s) == lines{});  // wanted off at 7s, but the interval runs to 31s
  CHECK(scaler.load(25s, 1) == lines{});    // wanted on again: nothing to change
  CHECK(scaler.load(26s, 0) == lines{});
  CHECK(scaler.run_until(31s) == lines{"31s protect off"});
  CHECK(scaler.state().protection_in_flight == false);
}

TEST_CASE("a failed protection call is retried with backoff", "[scaling]") {
  auto policy = quick_policy();
  policy.protect_while_busy = true;
  scaler_under_test scaler{policy};
  scaler.load(0s, 1);
  CHECK(scaler.at(1s, failure(scaling_call::protect, autoscaling_failure_kind::retry_with_backoff,
                              "ResourceContention")) == lines{"1s note"});
  CHECK(scaler.run_until(8s) == lines{});
  CHECK(scaler.run_until(11s).size() == 1);  // 10s after the failure, shortened by at most 2.5s
  CHECK(std::get<protect_self>(scaler.decisions().back()).protect);
}

TEST_CASE("a protected idle instance takes its protection off before giving itself up",
          "[scaling]") {
  auto policy = quick_policy();
  policy.protect_while_busy = true;
  scaler_under_test scaler{policy};
  scaler.load(0s, 0);
  scaler.run_until(600s);
  auto view = group(1, 3, 10);
  view.self_protected = true;  // the group protects new instances
  CHECK(scaler.at(600s, group_read{view}) == lines{"600s protect off"});
  CHECK(scaler.at(601s, call_succeeded{scaling_call::protect}) == lines{"601s read"});
  CHECK(scaler.at(602s, group_read{group(1, 3, 10)}) == lines{"602s scale_in"});
}

TEST_CASE("jitter spreads a saturated fleet over the jitter span, the same for the same seed",
          "[scaling]") {
  auto policy = quick_policy();
  policy.jitter = 30s;
  std::vector<duration> read_times;
  for (std::uint64_t seed : {1u, 2u, 3u, 1u}) {
    scaler_under_test scaler{policy, seed};
    scaler.load(0s, 2);
    scaler.run_until(59s);
    CHECK(scaler.run_until(59s) == lines{});
    lines read;
    std::chrono::seconds at = 60s;
    for (; at <= 91s && read.empty(); ++at) read = scaler.run_until(at);
    REQUIRE(read.size() == 1);
    read_times.push_back(at - 1s);
  }
  for (const auto at : read_times) {
    CHECK(at >= duration{60s});
    CHECK(at <= duration{90s});
  }
  CHECK(read_times[0] == read_times[3]);
  CHECK((read_times[0] != read_times[1] || read_times[1] != read_times[2]));
}

TEST_CASE("capacity from gitlab-runner's bounds: concurrent, and the limits when all are set",
          "[scaling]") {
  using limits = std::vector<std::uint64_t>;
  CHECK(runner_capacity(4, limits{}) == 4u);
  CHECK(runner_capacity(4, limits{1, 2}) == 3u);
  CHECK(runner_capacity(2, limits{3, 3}) == 2u);
  CHECK(runner_capacity(4, limits{1, 0}) == 4u);  // one entry without a limit
  CHECK(runner_capacity(std::nullopt, limits{2, 2}) == 4u);
  CHECK_FALSE(runner_capacity(std::nullopt, limits{}));
}
}  // namespace runwarden::testing

// The pod annotation machine: which merge patch each state of the runner asks
// for, one patch in flight at a time, and the bounded retries of 409, 429 (after its
// Retry-After) and 5xx. Method: feed events with explicit instants and compare the patches
// (role and body) and the wake-ups the machine returns; no clock, no I/O.
#include <catch2/catch.hpp>

#include "src/kubernetes/pod_annotation_machine.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr char busy_body[] =
    R"({"metadata":{"annotations":{"cluster-autoscaler.kubernetes.io/safe-to-evict":"false",)"
    R"("controller.kubernetes.io/pod-deletion-cost":null,"karpenter.sh/do-not-disrupt":"true"}}})";
constexpr char idle_body[] =
    R"({"metadata":{"annotations":{"cluster-autoscaler.kubernetes.io/safe-to-evict":null,)"
    R"("controller.kubernetes.io/pod-deletion-cost":"-100","karpenter.sh/do-not-disrupt":null}}})";
constexpr char released_body[] =
    R"({"metadata":{"annotations":{"cluster-autoscaler.kubernetes.io/safe-to-evict":null,)"
    R"("controller.kubernetes.io/pod-deletion-cost":null,"karpenter.sh/do-not-disrupt":null}}})";

load_seen running(std::uint32_t jobs) { return {warden_status::running, jobs}; }

// The roles of the patches a step sends.
std::vector<pod_role> patches_of(const pod_annotation_step& out) {
  std::vector<pod_role> roles;
  for (const auto& effect : out.effects)
    if (const auto* patch = std::get_if<send_pod_patch>(&effect)) roles.push_back(patch->role);
  return roles;
}

patch_answered answer(int code) { return {code, std::nullopt, {}}; }

}  // namespace

TEST_CASE("each role's patch sets its annotations and nulls the others", "[kubernetes]") {
  CHECK(pod_patch_body(pod_role::busy, -100) == busy_body);
  CHECK(pod_patch_body(pod_role::idle, -100) == idle_body);
  CHECK(pod_patch_body(pod_role::released, -100) == released_body);
  CHECK(pod_path("ci", "runner-0") == "/api/v1/namespaces/ci/pods/runner-0");
}

TEST_CASE("busy, idle, then a drain: one patch each, in order", "[kubernetes]") {
  pod_annotation_state state;
  state.policy.idle_hold_off = 0ms;  // the hold-off has a test of its own
  // Unknown jobs and a starting runner say nothing.
  CHECK(step(state, load_seen{warden_status::starting, std::nullopt}, 0s).effects.empty());
  CHECK(step(state, load_seen{warden_status::running, std::nullopt}, 1s).effects.empty());
  auto out = step(state, running(2), 2s);
  REQUIRE(patches_of(out) == std::vector{pod_role::busy});
  CHECK(std::get<send_pod_patch>(out.effects.front()).body == busy_body);
  // The role changes while busy's patch is in flight: idle waits for the answer.
  CHECK(patches_of(step(state, running(0), 3s)).empty());
  out = step(state, answer(200), 4s);
  CHECK(out.outcome == pod_patch_outcome::applied);
  CHECK(patches_of(out) == std::vector{pod_role::idle});
  CHECK(step(state, answer(200), 5s).outcome == pod_patch_outcome::applied);
  CHECK(state.applied == pod_role::idle);
  CHECK(patches_of(step(state, running(0), 6s)).empty());  // already idle
  CHECK(patches_of(step(state, load_seen{warden_status::shutting_down, 1u}, 7s)) ==
        std::vector{pod_role::released});
  step(state, answer(200), 8s);
  // A drain is final: jobs seen afterwards bring nothing back.
  CHECK(patches_of(step(state, running(3), 9s)).empty());
  CHECK(state.applied == pod_role::released);
}

TEST_CASE("idle after busy waits the hold-off, and a job within it keeps the pod busy",
          "[kubernetes]") {
  pod_annotation_state state;  // idle_hold_off 30 s
  // The first idle, never busy: at once (there is no do-not-disrupt to lift).
  REQUIRE(patches_of(step(state, running(0), 0s)) == std::vector{pod_role::idle});
  step(state, answer(200), 1s);
  REQUIRE(patches_of(step(state, running(1), 10s)) == std::vector{pod_role::busy});
  step(state, answer(200), 11s);
  // Between two jobs: nothing sent, a wake-up at the hold-off's end.
  auto out = step(state, running(0), 20s);
  CHECK(patches_of(out).empty());
  CHECK(out.wake_at == instant{50s});
  // Seen idle again: the hold-off runs from the first sight, not from each.
  CHECK(step(state, running(0), 30s).wake_at == instant{50s});
  // The next job comes within it: no patch at all, and the wake-up finds nothing to do.
  CHECK(patches_of(step(state, running(2), 40s)).empty());
  out = step(state, patch_timer_fired{}, 50s);
  CHECK(patches_of(out).empty());
  CHECK_FALSE(out.wake_at);
  CHECK(state.applied == pod_role::busy);
  // Idle through the whole hold-off: the idle patch goes out when it ends.
  CHECK(patches_of(step(state, running(0), 60s)).empty());
  CHECK(patches_of(step(state, patch_timer_fired{}, 89s)).empty());
  CHECK(patches_of(step(state, patch_timer_fired{}, 90s)) == std::vector{pod_role::idle});
  step(state, answer(200), 91s);
  CHECK(state.applied == pod_role::idle);
}

TEST_CASE("a drain during the idle hold-off releases at once", "[kubernetes]") {
  pod_annotation_state state;
  REQUIRE(patches_of(step(state, running(1), 0s)) == std::vector{pod_role::busy});
  step(state, answer(200), 1s);
  CHECK(patches_of(step(state, running(0), 2s)).empty());
  const auto out = step(state, load_seen{warden_status::shutting_down, 0u}, 3s);
  CHECK(patches_of(out) == std::vector{pod_role::released});
  CHECK_FALSE(out.wake_at);
  CHECK_FALSE(state.idle_due);
}

TEST_CASE("a 409 is retried after a backoff, a 429 after its Retry-After", "[kubernetes]") {
  pod_annotation_state state;
  REQUIRE(patches_of(step(state, running(1), 0s)) == std::vector{pod_role::busy});
  auto out = step(state, answer(409), 1s);
  CHECK(out.outcome == pod_patch_outcome::conflict);
  CHECK(patches_of(out).empty());
  REQUIRE(out.wake_at == instant{1s + 500ms});
  CHECK(patches_of(step(state, patch_timer_fired{}, 1s + 400ms)).empty());
  CHECK(patches_of(step(state, patch_timer_fired{}, 1s + 500ms)) == std::vector{pod_role::busy});
  out = step(state, patch_answered{429, 7s, {}}, 2s);
  CHECK(out.outcome == pod_patch_outcome::throttled);
  CHECK(out.wake_at == instant{9s});
  // A Retry-After past the cap waits only the cap.
  CHECK(patches_of(step(state, patch_timer_fired{}, 9s)) == std::vector{pod_role::busy});
  out = step(state, patch_answered{429, 3600s, {}}, 10s);
  CHECK(out.wake_at == instant{70s});
  CHECK(patches_of(step(state, patch_timer_fired{}, 70s)) == std::vector{pod_role::busy});
  CHECK(step(state, answer(200), 71s).outcome == pod_patch_outcome::applied);
  CHECK(state.applied == pod_role::busy);
}

TEST_CASE("attempts are bounded per role, a new role starts afresh", "[kubernetes]") {
  pod_annotation_state state;
  state.policy.attempts_max = 3;
  state.policy.idle_hold_off = 0ms;
  instant now = 0s;
  REQUIRE(patches_of(step(state, running(1), now)).size() == 1);
  for (int failure = 1; failure <= 3; ++failure) {
    now += 1s;
    auto out = step(state, patch_answered{std::nullopt, std::nullopt, "refused"}, now);
    CHECK(out.outcome == pod_patch_outcome::failed);
    if (failure == 3) {
      CHECK_FALSE(out.wake_at);
      break;
    }
    REQUIRE(out.wake_at);
    now = *out.wake_at;
    REQUIRE(patches_of(step(state, patch_timer_fired{}, now)).size() == 1);
  }
  CHECK(state.given_up == pod_role::busy);
  CHECK(patches_of(step(state, running(2), now + 1s)).empty());  // still busy: given up
  CHECK(patches_of(step(state, running(0), now + 2s)) == std::vector{pod_role::idle});
}

TEST_CASE("a 403 or 404 is not retried", "[kubernetes]") {
  pod_annotation_state state;
  REQUIRE(patches_of(step(state, running(1), 0s)).size() == 1);
  const auto out = step(state, answer(403), 1s);
  CHECK(out.outcome == pod_patch_outcome::refused);
  CHECK_FALSE(out.wake_at);
  CHECK(state.given_up == pod_role::busy);
  CHECK(outcome_of(answer(404)) == pod_patch_outcome::refused);
  CHECK(outcome_of(answer(503)) == pod_patch_outcome::failed);
}

TEST_CASE("a drain during a failing patch releases next", "[kubernetes]") {
  pod_annotation_state state;
  REQUIRE(patches_of(step(state, running(1), 0s)).size() == 1);
  step(state, load_seen{warden_status::shutting_down, 1u}, 1s);
  // busy's failure does not count against released, which goes out at once.
  const auto out = step(state, answer(500), 2s);
  CHECK(patches_of(out) == std::vector{pod_role::released});
  CHECK(state.attempts == 0u);
}

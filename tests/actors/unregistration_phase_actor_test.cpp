// The unregistration step's own restarts, in virtual time. The step restarts an unregistrar
// that crashes (unregistering is idempotent), but it is itself a supervised child: after
// unregistrar_restarts_max restarts the next crash ends the step with an error, so that its
// supervisor's restart intensity, not an unbounded loop inside the child, decides what
// follows. The unregistrar here never gets an answer (its HTTP port keeps every request), so
// it is only ever ended by the test, with the reason an escaping exception gives in CAF 0.17.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>

#include "actors/unregistrar/unregistration_phase_actor.hpp"
#include "messages/warden_messages.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

http_port_actor::behavior_type silent_http_port(http_port_actor::pointer self,
                                                std::shared_ptr<int> requests) {
  (void)self;
  return {
      [](const host_lookup&) {},
      [=](const http_request&) { ++*requests; },
  };
}

struct phase_end {
  std::optional<caf::error> reason;
};

// Monitors the step as its supervisor would and writes down how it ended.
unregistration_listener_actor::behavior_type end_recorder(
    unregistration_listener_actor::pointer self, unregistration_actor phase,
    std::shared_ptr<phase_end> end) {
  self->monitor(phase);
  self->set_down_handler([=](const caf::down_msg& down) { end->reason = down.reason; });
  return {[](unregistration_finished) {}, [](unregistration_progress) {}};
}

class phase_fixture : public testing::deterministic_fixture {
 public:
  phase_fixture() {
    const auto port = spawn(silent_http_port, requests_);
    unregistrar_wiring wiring{
        .http_port = port,
        .listener = {},
        .targets = {gitlab_runner{"build-1", "https://198.51.100.7", "glrt-TopSecret", "s_1"}},
        .limits = {.retry_initial = 1s, .retry_max = 8s, .attempts_max = 0},
        .timeout = 5s,
        .random_seed = 1};
    phase_ = spawn(unregistration_phase_behavior, std::move(wiring));
    recorder_ = spawn(end_recorder, phase_, end_);
    caf::send_as(recorder_, phase_, unregister_atom::value);
    run();
  }

  unregistration_phase_state& phase() { return state_of<unregistration_phase_state>(phase_); }

  void crash_unregistrar() {
    caf::anon_send_exit(phase().unregistrar, caf::exit_reason::unhandled_exception);
    run();
  }

  std::shared_ptr<int> requests_ = std::make_shared<int>(0);
  std::shared_ptr<phase_end> end_ = std::make_shared<phase_end>();
  unregistration_phase_implementation phase_;
  unregistration_listener_actor recorder_;
};

TEST_CASE_METHOD(phase_fixture,
                 "the unregistration step restarts its unregistrar at most "
                 "unregistrar_restarts_max times, then ends with an error",
                 "[unregistrar][bounds]") {
  REQUIRE(*requests_ == 1);
  for (std::uint32_t restart = 1; restart <= unregistrar_restarts_max; ++restart) {
    const auto before = phase().unregistrar;
    crash_unregistrar();
    REQUIRE_FALSE(end_->reason);
    CHECK(phase().restarts == restart);
    CHECK(phase().unregistrar != before);
    CHECK(*requests_ == static_cast<int>(restart) + 1);  // each fresh start asks again
  }
  crash_unregistrar();
  REQUIRE(end_->reason);
  CHECK(*end_->reason != caf::error{});
  CHECK(*end_->reason != caf::exit_reason::normal);
  CHECK(*requests_ == static_cast<int>(unregistrar_restarts_max) + 1);
}

}  // namespace

// See give_up_escalation.hpp.
#include "actors/supervisor/give_up_escalation.hpp"

#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace {

// The instance stopping ends its supervisors with these; a supervisor that gave up ends
// with the error it gave up with (supervisor_actor.cpp).
bool stopped_on_purpose(const caf::error& reason) {
  return !reason || reason == caf::exit_reason::user_shutdown || reason == caf::exit_reason::kill;
}

}  // namespace

caf::behavior give_up_escalation(caf::stateful_actor<give_up_escalation_state>* self,
                                 warden_exit_listener_actor host) {
  RUNWARDEN_ASSERT(host);
  self->set_down_handler([=](const caf::down_msg& down) {
    if (stopped_on_purpose(down.reason) || self->state.worker_failed) return;
    RUNWARDEN_ASSERT(self->state.warden);
    self->state.worker_failed = true;
    warden_logger()->error("{}; draining the runner, then exiting {}",
                           self->system().render(down.reason), exit_software);
    caf::anon_send(self->state.warden, shutdown_requested{.source = trigger_source::control_api,
                                                          .reason = "a supervised worker failed"});
  });
  return {
      [=](const escalation_watch& watch) {
        RUNWARDEN_ASSERT(watch.warden && !self->state.warden);
        self->state.warden = watch.warden;
        for (const auto& [supervisor, action] : watch.supervisors) {
          RUNWARDEN_ASSERT(action == give_up_action::drain_then_exit);
          self->monitor(supervisor);
        }
      },
      [=](warden_exited exited) {
        if (self->state.worker_failed) exited.exit_code = exit_software;
        caf::anon_send(host, std::move(exited));
      },
      [=](const os_signal_received& signal) { caf::anon_send(host, signal); },
  };
}

}  // namespace runwarden

#pragma once
// The warden's unregistration step (unregistration_actor in warden_messages.hpp): when the
// drain machine asks for it (unregister_atom),
// this actor runs an unregistrar over the planned targets, logs every runner's progress,
// and answers the warden with one unregistration_finished. An unregistrar that crashes is
// started again: unregistering is idempotent (a runner already gone counts as done), so a
// fresh start re-derives everything it must do.
//
// The phase is itself a supervised child (worker_supervision.hpp), so it does not restart
// its unregistrar without end: past unregistrar_restarts_max it stops with an error, and
// its supervisor decides, within its own restart intensity, as for any crashing worker (a
// new phase, asked again by the warden, or runwarden's exit and a restart that continues
// the drain from the journal).

#include <cstdint>
#include <optional>

#include "actors/unregistrar/unregistrar_actor.hpp"
#include "messages/warden_messages.hpp"

namespace runwarden {

inline constexpr std::uint32_t unregistrar_restarts_max = 3;

struct unregistration_phase_state {
  static inline const char* name = "unregistration_phase";
  unregistrar_wiring template_wiring;    // listener filled in with this actor
  unregistration_listener_actor warden;  // who asked; empty until asked
  unregistrar_actor unregistrar;
  std::uint32_t restarts = 0;  // at most unregistrar_restarts_max
  bool finished = false;
};

// The step as it runs: besides the warden's request, its unregistrar's reports.
using unregistration_phase_implementation =
    unregistration_actor::extend_with<unregistrar_listener_actor>;

unregistration_phase_implementation::behavior_type unregistration_phase_behavior(
    unregistration_phase_implementation::stateful_pointer<unregistration_phase_state> self,
    unregistrar_wiring wiring);

}  // namespace runwarden

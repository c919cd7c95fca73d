#pragma once
// The warden's unregistration step: when the drain machine asks for it (unregister_atom),
// this actor runs an unregistrar over the planned targets, logs every runner's progress,
// and answers the warden with one unregistration_finished. An unregistrar that crashes is
// started again: unregistering is idempotent (a runner already gone counts as done), so a
// fresh start re-derives everything it must do.

#include <optional>

#include "actors/unregistrar/unregistrar_actor.hpp"

namespace runwarden {

struct unregistration_phase_state {
  static inline const char* name = "unregistration_phase";
  unregistrar_wiring template_wiring;  // listener filled in with this actor
  caf::actor warden;                   // who asked; empty until asked
  caf::actor unregistrar;
  std::uint32_t restarts = 0;
  bool finished = false;
};

caf::behavior unregistration_phase_actor(caf::stateful_actor<unregistration_phase_state>* self,
                                         unregistrar_wiring wiring);

}  // namespace runwarden

#pragma once
// `runwarden run` and `runwarden wrapper`: wires the actor system, the io thread and the
// ports around the warden, waits until the warden reaches gone, lingers there as long as
// control.linger_after_gone says (answering the control API), and returns the exit code the
// warden chose.

#include "src/config/settings.hpp"

namespace runwarden {

int run_warden(const settings& requested);

}  // namespace runwarden

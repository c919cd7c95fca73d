#pragma once
// One line of text per event, stable and complete enough to tell events apart: replay
// prints it above the effects each event produced. Callback header values are left out,
// since they may carry credentials.

#include <string>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

std::string to_string(const drain_event& event);

}  // namespace runwarden

#pragma once
// One line of text per effect, stable and complete: the tests compare effects through it,
// and the debug log and replay diffs print it.

#include <string>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

std::string to_string(const drain_effect& effect);

}  // namespace runwarden

#pragma once
// Environment variables as the pure code takes them: a map handed in, never getenv() inside
// the logic, so tests and the simulation choose the environment.

#include <map>
#include <string>

namespace runwarden {

using environment_map = std::map<std::string, std::string>;

// This process's environment, read once at start.
environment_map process_environment();

}  // namespace runwarden

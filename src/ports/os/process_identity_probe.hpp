#pragma once
// Reads a live process's identity (src/runner/process_identity.hpp) from /proc, and judges a
// recorded one against it before runwarden adopts or signals a pid from its journal.

#include <sys/types.h>

#include <optional>
#include <string>

#include "src/runner/process_identity.hpp"

namespace runwarden {

// nullopt when there is no such process (or /proc cannot tell).
std::optional<process_identity> read_process_identity(pid_t pid);

// Empty when `pid` is the process `recorded` names; otherwise why it is not provably so,
// in words for the log.
std::string identity_problem(pid_t pid, const process_identity& recorded);

}  // namespace runwarden

// See exit_status.hpp.
#include "src/runner/exit_status.hpp"

#include "src/runner/signal_names.hpp"

namespace runwarden {

std::string to_string(const exit_status& status) {
  if (status.unknown) return "exit status unknown";
  if (status.signaled) return "killed by " + signal_name(status.value);
  return "exit code " + std::to_string(status.value);
}

}  // namespace runwarden

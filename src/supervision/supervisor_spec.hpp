#pragma once
// What a supervisor of runwarden's own actors is told up front, in Erlang/OTP's vocabulary:
// its children in start order (each with a restart type and a shutdown timeout), the
// strategy that says which siblings restart with a crashed child, and the restart
// intensity (at most restarts_max restarts within restart_window) past which it gives up.
// This is not the runner's restart policy (restart_policy.hpp): the runner is a process with
// backoff between restarts; actors restart at once and are bounded by intensity alone.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/supervision/restart_type.hpp"
#include "src/util/machine_time.hpp"

namespace runwarden {

// Which children restart when one of them exits and is to be restarted:
//   one_for_one   only that child
//   one_for_all   every child (the others are stopped first, in reverse start order)
//   rest_for_one  that child and every child started after it
enum class restart_strategy : std::uint8_t { one_for_one, one_for_all, rest_for_one };

std::string_view to_string(restart_strategy strategy);

struct child_spec {
  std::string id;  // unique among its siblings, not empty
  restart_type restart = restart_type::permanent;
  // How long a graceful stop may take before the child is killed; zero kills at once
  // (OTP's brutal_kill). OTP's default for workers.
  duration shutdown_timeout = std::chrono::seconds{5};
};

// OTP's defaults: one restart within five seconds.
struct supervisor_flags {
  restart_strategy strategy = restart_strategy::one_for_one;
  std::size_t restarts_max = 1;
  duration restart_window = std::chrono::seconds{5};
};

// Supervisors bound the work done per exit: each restart walks the children.
inline constexpr std::size_t supervised_children_max = 64;

// The first problem found, naming the field (and the child), or nullopt when all is valid.
std::optional<std::string> check_supervisor_spec(const supervisor_flags& flags,
                                                 const std::vector<child_spec>& children);

}  // namespace runwarden

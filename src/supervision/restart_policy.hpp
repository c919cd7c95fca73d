#pragma once
// When a runner that exited on its own is started again, and after how long. The restart
// types (restart_type.hpp) are Erlang/OTP's. Restarts are spaced by exponential backoff
// with jitter and bounded by a budget (at most N restarts in a window), past which the
// warden gives up so that the service manager above it can act.

#include <chrono>
#include <cstdint>

#include "src/supervision/restart_type.hpp"

namespace runwarden {

struct restart_settings {
  restart_type type = restart_type::transient;
  std::chrono::milliseconds backoff_initial{std::chrono::seconds{1}};
  std::chrono::milliseconds backoff_max{std::chrono::seconds{60}};
  double jitter = 0.2;  // fraction of each delay drawn at random, in [0, 1]
  std::uint32_t budget_restarts_max = 5;
  std::chrono::milliseconds budget_window{std::chrono::minutes{5}};
  friend bool operator==(const restart_settings&, const restart_settings&) = default;
};

}  // namespace runwarden

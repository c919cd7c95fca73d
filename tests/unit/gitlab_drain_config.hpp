#pragma once
// The drain configuration the unit tests share: gitlab-runner's signals, no jitter (so
// delays are exact), a 10 s kill timeout and a fixed seed.

#include <chrono>
#include <csignal>

#include "src/drain/drain_machine.hpp"

namespace runwarden::testing {

inline drain_config gitlab_config() {
  using namespace std::chrono_literals;
  return drain_config{.graceful_signal = SIGQUIT,
                      .forceful_signal = SIGTERM,
                      .restart = restart_settings{.jitter = 0.0},
                      .drain_timeout = std::nullopt,
                      .kill_timeout = 10s,
                      .random_seed = 7,
                      // The hold for a runner just started has its own cases
                      // (drain_start_grace_test.cpp); the rest drain at once.
                      .runner_start_grace = 0s};
}

}  // namespace runwarden::testing

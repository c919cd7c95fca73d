#pragma once
// `runwarden run` and `runwarden wrapper`: wires the actor system, the io thread and the
// ports around the warden, waits until the warden reaches gone, lingers there as long as
// control.linger_after_gone says (answering the control API), and returns the exit code the
// warden chose.

#include <chrono>
#include <cstdint>
#include <optional>

#include "src/config/settings.hpp"
#include "src/drain/drain_machine.hpp"

namespace runwarden {

// The drain machine's configuration for these settings (the runner kind decides signals).
// gitlab_shutdown_timeout is gitlab-runner's own, from its config.toml, when one was read.
drain_config make_drain_config(const settings& config, std::uint64_t random_seed,
                               std::optional<std::chrono::seconds> gitlab_shutdown_timeout = {});

int run_warden(const settings& requested);

}  // namespace runwarden

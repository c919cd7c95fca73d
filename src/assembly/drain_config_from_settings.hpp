#pragma once
// The drain machine's configuration for a settings value: the one place that turns
// runwarden's settings into it, for `runwarden run` and the simulation alike. The runner
// kind decides the signals and the kill timeout; unregistration and the lifecycle lookup
// follow the [unregister] and [aws] sections.

#include <chrono>
#include <cstdint>
#include <optional>

#include "src/config/settings.hpp"
#include "src/drain/drain_machine.hpp"

namespace runwarden {

// gitlab_shutdown_timeout is gitlab-runner's own, from its config.toml, when one was read.
drain_config make_drain_config(const settings& config, std::uint64_t random_seed,
                               std::optional<std::chrono::seconds> gitlab_shutdown_timeout = {});

}  // namespace runwarden

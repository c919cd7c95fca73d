#pragma once
// `runwarden ctl`: the client side of the control API (status, shutdown), for operators and
// for Kubernetes preStop hooks.

#include <CLI/CLI.hpp>
#include <functional>

namespace runwarden {

struct ctl_command {
  std::function<bool()> chosen;  // true when the command line named `ctl`
  std::function<int()> run;      // runs it; returns runwarden's exit code
};

// Adds the `ctl` subcommand and its own subcommands and flags to `app`.
ctl_command add_ctl_command(CLI::App& app);

}  // namespace runwarden

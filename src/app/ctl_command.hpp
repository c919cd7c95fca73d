#pragma once
// `runwarden ctl`: the client side of the control API, for operators and for Kubernetes
// preStop hooks:
//   runwarden ctl [--socket PATH | --addr ADDRESS] [--token-file FILE] [--tls-ca FILE]
//       status [--json] [--watch]
//       shutdown [--reason TEXT] [--webhook URL] [--deadline DURATION] [--wait] [--force]
//                [--json]
//       job start|end ID [--json]
// `job start|end` reports a job of the runner's (its hooks call it), quiet unless --json.
// `shutdown --wait` returns once the runner is gone, with runwarden's exit code (the
// runner's, normally). Failures have exit codes of their own (control_client.hpp).

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

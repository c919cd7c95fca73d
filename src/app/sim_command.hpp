#pragma once
// `runwarden sim SCENARIO.toml [--seed N | --seeds A..B] [--report text|json]
// [--journal FILE] [--timeline FILE.svg]`: runs the fleet simulation (src/sim/fleet_run.hpp)
// for one seed or a range. One seed prints its whole report; a range prints one line per
// seed and a summary. A broken invariant prints the seed and the one-line command that
// repeats it, and the exit code is 1. Exit codes: 0 every invariant held, 1 one broke,
// 64 a usage error, 78 a bad scenario file.

#include <CLI/CLI.hpp>
#include <functional>

namespace runwarden {

struct sim_command {
  std::function<bool()> chosen;
  std::function<int()> run;
};

sim_command add_sim_command(CLI::App& app);

}  // namespace runwarden

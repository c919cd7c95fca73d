#pragma once
// The command line: `runwarden run [--config FILE] [flags] -- COMMAND [ARGS...]`,
// `runwarden wrapper [gitlab-runner wrapper's flags and run's] -- gitlab-runner run ...`
// (a drop-in for `gitlab-runner wrapper`), `runwarden ctl ...`, `runwarden replay JOURNAL
// [--check]` and `runwarden version`. It parses, merges flags over the config file, and calls the
// library.

#include "src/util/exit_codes.hpp"

namespace runwarden {

int run_cli(int argc, char** argv);

}  // namespace runwarden

#pragma once
// The command line: `runwarden run [--config FILE] [flags] -- COMMAND [ARGS...]` and
// `runwarden version`. It parses, merges flags over the config file, and calls the library.

namespace runwarden {

// Exit codes of runwarden's own making (sysexits.h); the runner's exit code is mirrored
// otherwise, as tini does.
inline constexpr int exit_usage = 64;
inline constexpr int exit_config = 78;

int run_cli(int argc, char** argv);

}  // namespace runwarden

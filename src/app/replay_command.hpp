#pragma once
// `runwarden replay JOURNAL [--check]`: feeds a recorded journal through the drain machine
// and prints each event with the effects it produces (src/journal/journal_replay.hpp).
// --check prints nothing but a summary and compares the effects with those recorded.
// Exit codes: 0 replayed (and, with --check, identical), 1 the effects differ (the first
// difference on stderr), 65 a file that is not a journal or from a newer format version,
// 66 no journal to read. A damaged tail is reported on stderr; the good prefix still
// replays.

#include <CLI/CLI.hpp>
#include <functional>

namespace runwarden {

struct replay_command {
  std::function<bool()> chosen;  // true when the command line named `replay`
  std::function<int()> run;      // runs it; returns the exit code
};

replay_command add_replay_command(CLI::App& app);

}  // namespace runwarden

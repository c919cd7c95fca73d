// See replay_command.hpp. The journal is only read, never cut: replay may look at the
// journal of a runwarden that is still running.
#include "src/app/replay_command.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "src/journal/journal_reader.hpp"
#include "src/journal/journal_replay.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace {

struct replay_options {
  std::string journal;
  bool check = false;
};

int run_replay(const replay_options& options) {
  std::error_code ignored;
  if (!std::filesystem::exists(options.journal, ignored)) {
    std::cerr << "runwarden replay: no journal at " << options.journal << '\n';
    return exit_no_input;
  }
  const auto read = read_journal(options.journal);
  if (!read.contents) {
    std::cerr << "runwarden replay: " << read.error << '\n';
    return exit_data_error;
  }
  const auto& contents = *read.contents;
  if (contents.damage)
    std::cerr << "runwarden replay: damaged tail ignored: " << describe(*contents.damage) << '\n';
  const auto result = replay_journal(contents.header, contents.entries);
  if (!options.check) {
    std::cout << result.text << std::flush;
    return 0;
  }
  if (result.first_difference) {
    std::cerr << "runwarden replay: effects differ at " << describe(*result.first_difference)
              << '\n';
    return exit_replay_differs;
  }
  std::cout << "checked " << contents.entries.size() << " entries: effects identical\n";
  return 0;
}

}  // namespace

replay_command add_replay_command(CLI::App& app) {
  auto options = std::make_shared<replay_options>();
  auto* replay = app.add_subcommand("replay", "print the effects a recorded journal produces");
  replay->add_option("JOURNAL", options->journal, "journal file (see messages/runwarden/journal)")
      ->required();
  replay->add_flag("--check", options->check,
                   "compare with the recorded effects; exit 1 on the first difference");
  return {[replay] { return replay->parsed(); }, [options] { return run_replay(*options); }};
}

}  // namespace runwarden

#pragma once
// Reads runwarden's TOML config file into `settings`. Every problem in the file is reported,
// not only the first, as "<file>:<line>: <key>: <problem>", so that one edit can fix a whole
// file. Command-line flags are applied afterwards by the caller; this file knows none.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/config/settings.hpp"

namespace runwarden {

struct config_result {
  std::optional<settings> config;   // set exactly when errors is empty
  std::vector<std::string> errors;  // in line order; each names the file, line and key
  // Accepted but worth saying (a key kept for a while under an older name), worded as errors.
  std::vector<std::string> warnings;
};

// Reads and checks the file at `path` on top of `base` (a mode's own defaults). A file that
// cannot be read (missing, no permission, a directory, too large) gives one error naming the
// path and the reason.
config_result load_config_file(const std::filesystem::path& path, settings base = {});

// Checks TOML text as if read from a file called `source_name` (used in the messages).
config_result parse_config_text(std::string_view text, std::string_view source_name,
                                settings base = {});

// One setting given outside the file, such as a command-line flag: the key it sets
// ("drain.timeout"), its text, and the name to blame in messages ("--drain-timeout").
struct config_override {
  std::string key;
  std::string value;
  std::string label;
};

// Applies overrides on top of `base` through the same checks as the file, so a flag and a
// key accept exactly the same values and are refused with the same words.
config_result apply_overrides(settings base, const std::vector<config_override>& overrides);

// Checks that hold only once the file, the command and the flags are merged: a runner
// command is there, and signals are set only for a kind that takes them.
std::vector<std::string> check_merged_settings(const settings& config);

}  // namespace runwarden

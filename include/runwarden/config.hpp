#pragma once
// runwarden's settings for an embedded instance: the same keys, the same reader and the
// same checks as the TOML file `runwarden run --config` reads (every key is documented in
// config/runwarden.toml), given as a file or as TOML text written in code. Every problem is
// named as "<source>:<line>: <key>: <problem>", all of them at once.
//
//   auto loaded = runwarden::embedded::config::from_toml(
//       "[drain]\ntimeout = \"30m\"\n", {"/usr/libexec/runwarden/runwarden-demo-runner"});
//   if (!loaded.config) for (const auto& error : loaded.errors) std::cerr << error << '\n';

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden::embedded {

class config {
 public:
  struct loaded;

  // The runner's command line (argv), as after `--` in `runwarden run`: it wins over
  // runner.command in the TOML. Empty keeps runner.command.
  static loaded from_file(const std::string& path, std::vector<std::string> command = {});
  static loaded from_toml(std::string_view text, std::vector<std::string> command = {},
                          std::string_view source_name = "embedded config");

  config(const config&);
  config& operator=(const config&);
  ~config();

 private:
  friend class instance;
  struct settings_value;
  explicit config(std::unique_ptr<settings_value> value);
  std::unique_ptr<settings_value> value_;
};

struct config::loaded {
  std::optional<runwarden::embedded::config> config;  // set exactly when errors is empty
  std::vector<std::string> errors;
  // Accepted but worth saying (a key kept for a while under an older name); the host logs
  // them as it likes.
  std::vector<std::string> warnings = {};
};

}  // namespace runwarden::embedded

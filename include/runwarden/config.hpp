#pragma once
// runwarden's settings for an embedded instance: the same keys, the same reader and the
// same checks as the TOML file `runwarden run --config` reads (every key is documented in
// config/runwarden.toml), given as a file or as TOML text written in code. Every problem is
// named as "<source>:<line>: <key>: <problem>", all of them at once.
//
//   auto loaded = runwarden::embedded::config::from_toml(
//       "[drain]\ntimeout = \"30m\"\n", {"/usr/libexec/runwarden/runwarden-demo-runner"});
//   if (!loaded.config) for (const auto& error : loaded.errors) std::cerr << error << '\n';
//
// runwarden's log lines go to stderr as the [log] table says (level; format "text" or
// "json"), or, once set_log_sink gave one, to the host's sink, at [log] level and above.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden::embedded {

enum class log_level : std::uint8_t { trace, debug, info, warning, error, critical };

// One of runwarden's log lines, valid during the sink's call only.
struct log_line {
  log_level level;
  // "warden": runwarden's own lines; "runner": the runner's stdout and stderr, line by line.
  std::string_view logger;
  std::string_view text;
  std::chrono::system_clock::time_point time;
};

// Called on a thread of runwarden's (never a CAF worker, never the one that acts on the
// runner), one line at a time, in order. It may take its time, within reason: lines wait in
// a bounded queue meanwhile, and the oldest give way once it is full. It must not call into
// the instance. It is never called once the instance's stop() returned.
using log_sink = std::function<void(const log_line&)>;

class config {
 public:
  struct loaded;

  // The runner's command line (argv), as after `--` in `runwarden run`: it wins over
  // runner.command in the TOML. Empty keeps runner.command.
  static loaded from_file(const std::string& path, std::vector<std::string> command = {});
  static loaded from_toml(std::string_view text, std::vector<std::string> command = {},
                          std::string_view source_name = "embedded config");

  // runwarden's log lines at [log] level and above go to `sink` instead of stderr ([log]
  // format is then the host's business). The log is one per process: with several instances
  // running, the one started last decides where every line goes. An empty sink: stderr.
  void set_log_sink(log_sink sink);

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

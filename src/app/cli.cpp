// See cli.hpp. Everything after the first "--" is the runner's command, taken byte for byte
// (empty strings, spaces, leading dashes and all) before CLI11 sees the rest: a supervisor
// must never reinterpret the arguments it passes on.
#include "src/app/cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "runwarden_version.hpp"
#include "src/app/config_file.hpp"
#include "src/app/logging.hpp"
#include "src/app/run_command.hpp"
#include "src/runner/signal_names.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

// Flags as given; each one set overrides the config file.
struct run_flags {
  std::string config_path;
  std::optional<std::string> kind, output, graceful_signal, forceful_signal, restart,
      drain_timeout, kill_timeout, log_level, log_format;
};

void add_run_flags(CLI::App& run, run_flags& flags) {
  run.add_option("--config", flags.config_path, "TOML config file (see config/runwarden.toml)")
      ->check(CLI::ExistingFile);
  run.add_option("--kind", flags.kind, "runner kind: gitlab or generic (default: from COMMAND)");
  run.add_option("--output", flags.output, "runner output: log (default) or inherit");
  run.add_option("--graceful-signal", flags.graceful_signal, "generic kind: drain signal");
  run.add_option("--forceful-signal", flags.forceful_signal, "generic kind: abort signal");
  run.add_option("--restart", flags.restart, "permanent, transient (default) or temporary");
  run.add_option("--drain-timeout", flags.drain_timeout, "drain deadline, e.g. 2h (default none)");
  run.add_option("--kill-timeout", flags.kill_timeout, "SIGKILL this long after the forceful signal");
  run.add_option("--log-level", flags.log_level, "trace, debug, info (default), warn, error");
  run.add_option("--log-format", flags.log_format, "text (default) or json");
}

// Applies one flag through the same parser the config file uses; errors name the flag.
template <class Parse>
void override_with(const std::optional<std::string>& flag, const char* name, Parse parse,
                   std::vector<std::string>& errors) {
  if (!flag) return;
  if (auto problem = parse(*flag)) errors.push_back(std::string{name} + ": " + *problem);
}

std::vector<std::string> apply_flags(const run_flags& flags, settings& config) {
  std::vector<std::string> errors;
  override_with(flags.kind, "--kind", [&](const std::string& text) -> std::optional<std::string> {
    config.runner.kind = parse_runner_kind(text);
    if (!config.runner.kind) return "unknown runner kind \"" + text + "\" (gitlab, generic)";
    return std::nullopt;
  }, errors);
  override_with(flags.output, "--output", [&](const std::string& text) -> std::optional<std::string> {
    if (text == "log") config.runner.output = output_mode::log;
    else if (text == "inherit") config.runner.output = output_mode::inherit;
    else return "unknown output mode \"" + text + "\" (log, inherit)";
    return std::nullopt;
  }, errors);
  const auto signal_flag = [](std::optional<int>& target) {
    return [&target](const std::string& text) -> std::optional<std::string> {
      target = parse_signal_name(text);
      if (!target) return "unknown signal \"" + text + "\"";
      return std::nullopt;
    };
  };
  override_with(flags.graceful_signal, "--graceful-signal",
                signal_flag(config.runner.graceful_signal), errors);
  override_with(flags.forceful_signal, "--forceful-signal",
                signal_flag(config.runner.forceful_signal), errors);
  override_with(flags.restart, "--restart", [&](const std::string& text) -> std::optional<std::string> {
    auto type = parse_restart_type(text);
    if (!type) return "unknown restart policy \"" + text + "\" (permanent, transient, temporary)";
    config.restart.type = *type;
    return std::nullopt;
  }, errors);
  override_with(flags.drain_timeout, "--drain-timeout", [&](const std::string& text) -> std::optional<std::string> {
    if (text == "none") { config.drain.timeout.reset(); return std::nullopt; }
    auto parsed = parse_duration(text);
    if (!parsed.value) return parsed.error;
    if (parsed.value->count() == 0) return "must be positive, or \"none\" for no deadline";
    config.drain.timeout = parsed.value;
    return std::nullopt;
  }, errors);
  override_with(flags.kill_timeout, "--kill-timeout", [&](const std::string& text) -> std::optional<std::string> {
    auto parsed = parse_duration(text);
    if (!parsed.value) return parsed.error;
    if (parsed.value->count() == 0) return "must be positive";
    config.drain.kill_timeout = *parsed.value;
    return std::nullopt;
  }, errors);
  override_with(flags.log_level, "--log-level", [&](const std::string& text) -> std::optional<std::string> {
    if (!parse_log_level(text)) return "unknown log level \"" + text + "\"";
    config.log.level = text;
    return std::nullopt;
  }, errors);
  override_with(flags.log_format, "--log-format", [&](const std::string& text) -> std::optional<std::string> {
    auto format = parse_log_format(text);
    if (!format) return "unknown log format \"" + text + "\" (text, json)";
    config.log.format = *format;
    return std::nullopt;
  }, errors);
  return errors;
}

// Checks that hold only once file and flags are merged.
std::vector<std::string> check_merged(const settings& config) {
  std::vector<std::string> errors;
  if (config.runner.command.empty())
    errors.push_back("no runner command: runwarden run [flags] -- COMMAND [ARGS...]");
  const auto kind = config.runner.kind.value_or(guess_runner_kind(
      config.runner.command.empty() ? "" : config.runner.command.front()));
  if (!kind_of(kind).signals_configurable &&
      (config.runner.graceful_signal || config.runner.forceful_signal))
    errors.push_back("runner kind " + std::string{kind_of(kind).text} +
                     " has fixed signals; graceful/forceful signals apply to kind generic");
  return errors;
}

int report_errors(const std::vector<std::string>& errors, int exit_code) {
  for (const auto& error : errors) std::cerr << "runwarden: " << error << '\n';
  return exit_code;
}

int run(const run_flags& flags, std::vector<std::string> command) {
  settings config;
  if (!flags.config_path.empty()) {
    auto loaded = load_config_file(flags.config_path);
    if (!loaded.config) return report_errors(loaded.errors, exit_config);
    config = std::move(*loaded.config);
  }
  if (!command.empty()) config.runner.command = std::move(command);
  if (auto errors = apply_flags(flags, config); !errors.empty())
    return report_errors(errors, exit_usage);
  if (auto errors = check_merged(config); !errors.empty())
    return report_errors(errors, exit_usage);
  if (auto problem = setup_logging(config.log)) return report_errors({*problem}, exit_config);
  return run_warden(config);
}

}  // namespace

int run_cli(int argc, char** argv) {
  std::vector<std::string> own_args{argv, argv + argc};
  std::vector<std::string> command;
  if (auto separator = std::find(own_args.begin(), own_args.end(), "--");
      separator != own_args.end()) {
    command.assign(separator + 1, own_args.end());
    own_args.erase(separator, own_args.end());
  }
  CLI::App app{"runwarden: supervises a CI runner and drains it without killing a job"};
  app.require_subcommand(1);
  run_flags flags;
  auto* run_command = app.add_subcommand("run", "supervise COMMAND: runwarden run -- COMMAND");
  add_run_flags(*run_command, flags);
  app.add_subcommand("version", "print runwarden's version");
  std::vector<const char*> parse_args;
  for (const auto& arg : own_args) parse_args.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(parse_args.size()), parse_args.data());
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : exit_usage;
  }
  if (app.got_subcommand("version")) {
    std::printf("runwarden %s\n", version_text);
    return 0;
  }
  return run(flags, std::move(command));
}

}  // namespace runwarden

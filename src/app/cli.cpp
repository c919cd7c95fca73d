// See cli.hpp. Everything after the first "--" is the runner's command, taken byte for byte
// (empty strings, spaces, leading dashes and all) before CLI11 sees the rest: a supervisor
// must never reinterpret the arguments it passes on.
#include "src/app/cli.hpp"

#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "runwarden_version.hpp"
#include "src/app/config_file.hpp"
#include "src/app/ctl_command.hpp"
#include "src/app/logging.hpp"
#include "src/app/replay_command.hpp"
#include "src/app/sim_command.hpp"
#include "src/app/run_command.hpp"

namespace runwarden {

namespace {

// Each flag sets one config key and goes through the config file's own checks.
struct flag_spec {
  const char* flag;
  const char* key;
  const char* help;
};

constexpr flag_spec run_flag_specs[] = {
    {"--kind", "runner.kind", "runner kind: gitlab or generic (default: from COMMAND)"},
    {"--output", "runner.output", "runner output: log (default) or inherit"},
    {"--graceful-signal", "runner.graceful_signal", "generic kind: the drain signal"},
    {"--forceful-signal", "runner.forceful_signal", "generic kind: the abort signal"},
    {"--metrics-url", "runner.metrics_url", "the runner's Prometheus /metrics URL"},
    {"--gitlab-config", "runner.gitlab_config", "gitlab-runner's config.toml to learn from"},
    {"--restart", "restart.policy", "permanent, transient (default) or temporary"},
    {"--drain-timeout", "drain.timeout", "drain deadline such as 2h, or none (default)"},
    {"--kill-timeout", "drain.kill_timeout", "SIGKILL this long after the forceful signal"},
    {"--log-level", "log.level", "trace, debug, info (default), warn, error, critical, off"},
    {"--log-format", "log.format", "text (default) or json"},
    {"--grpc-listen", "control.grpc_listen", "unix:///PATH or tcp://HOST:PORT, or none"},
    {"--token-file", "control.token_file", "file with the bearer token gRPC calls must carry"},
    {"--http-listen", "control.http_listen", "HOST:PORT for /metrics /healthz /readyz, or none"},
    {"--webhook", "webhook.url", "http(s) URL told when a drain starts and ends"},
    {"--state-dir", "journal.state_directory", "where the journal lives (one runwarden each)"},
};

struct run_flags {
  std::string config_path;
  std::array<std::optional<std::string>, std::size(run_flag_specs)> values;
};

void add_run_flags(CLI::App& run, run_flags& flags) {
  run.add_option("--config", flags.config_path, "TOML config file (see config/runwarden.toml)")
      ->check(CLI::ExistingFile);
  for (std::size_t index = 0; index < std::size(run_flag_specs); ++index) {
    const auto& spec = run_flag_specs[index];
    run.add_option(spec.flag, flags.values[index], spec.help);
  }
}

std::vector<config_override> overrides_from(const run_flags& flags) {
  std::vector<config_override> overrides;
  for (std::size_t index = 0; index < std::size(run_flag_specs); ++index) {
    if (flags.values[index])
      overrides.push_back({run_flag_specs[index].key, *flags.values[index],
                           run_flag_specs[index].flag});
  }
  return overrides;
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
  auto merged = apply_overrides(std::move(config), overrides_from(flags));
  if (!merged.config) return report_errors(merged.errors, exit_usage);
  config = std::move(*merged.config);
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
  auto ctl = add_ctl_command(app);
  auto replay = add_replay_command(app);
  auto sim = add_sim_command(app);
  std::vector<const char*> parse_args;
  for (const auto& arg : own_args) parse_args.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(parse_args.size()), parse_args.data());
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : exit_usage;
  }
  if (ctl.chosen()) return ctl.run();
  if (replay.chosen()) return replay.run();
  if (sim.chosen()) return sim.run();
  if (app.got_subcommand("version")) {
    std::printf("runwarden %s\n", version_text);
    return 0;
  }
  return run(flags, std::move(command));
}

}  // namespace runwarden

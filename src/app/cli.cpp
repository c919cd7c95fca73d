// See cli.hpp. Everything after the first "--" is the runner's command, taken byte for byte
// (empty strings, spaces, leading dashes and all) before CLI11 sees the rest: a supervisor
// must never reinterpret the arguments it passes on.
#include "src/app/cli.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <deque>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "runwarden_version.hpp"
#include "src/app/ctl_command.hpp"
#include "src/app/replay_command.hpp"
#include "src/app/run_command.hpp"
#include "src/app/sim_command.hpp"
#include "src/app/wrapper_mode.hpp"
#include "src/config/config_file.hpp"
#include "src/logging/logging.hpp"
#include "src/util/process_environment.hpp"
#include "src/util/secret_file.hpp"

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
    {"--linger-after-gone", "control.linger_after_gone",
     "stay up answering the control API once the runner is gone: forever or a duration"},
    {"--insecure-unauthenticated-wrapper-api", "control.insecure_unauthenticated_wrapper_api",
     "true: serve the wrapper API off loopback WITHOUT a token (anyone can stop the runner)"},
    {"--insecure-unauthenticated-warden-shutdown",
     "control.insecure_unauthenticated_warden_shutdown",
     "true: with the above, open runwarden.v1.Warden's shutdown calls too"},
    {"--webhook", "webhook.url",
     "http(s) URL told when a drain starts and ends (visible in ps: prefer --webhook-file)"},
    {"--state-dir", "journal.state_directory", "where the journal lives (one runwarden each)"},
};

// gitlab-runner wrapper's own flag (commands/wrapper.go), in runwarden's terms.
constexpr flag_spec wrapper_flag_specs[] = {
    {"--process-termination-timeout", "drain.kill_timeout",
     "gitlab-runner wrapper's flag: SIGKILL the runner this long after the forceful signal "
     "(default: gitlab-runner's shutdown_timeout + 5s)"},
};

// In wrapper mode the runner is gitlab-runner and is never restarted, so these do not apply.
constexpr std::string_view flags_not_for_wrapper[] = {"--kind", "--restart", "--graceful-signal",
                                                      "--forceful-signal"};

struct flag_values {
  std::string config_path;
  std::string webhook_file;
  bool dry_run = false;  // --dry-run: run.dry_run = true
  std::vector<const flag_spec*> specs;
  std::deque<std::optional<std::string>> values;  // a deque: CLI11 keeps their addresses
};

void add_flags(CLI::App& command, flag_values& flags, std::span<const flag_spec> specs,
               std::span<const std::string_view> skipped = {}) {
  for (const auto& spec : specs) {
    if (std::find(skipped.begin(), skipped.end(), spec.flag) != skipped.end()) continue;
    flags.specs.push_back(&spec);
    command.add_option(spec.flag, flags.values.emplace_back(), spec.help);
  }
}

void add_config_flag(CLI::App& command, flag_values& flags) {
  command.add_option("--config", flags.config_path, "TOML config file (see config/runwarden.toml)")
      ->check(CLI::ExistingFile);
  command.add_option("--webhook-file", flags.webhook_file,
                     "file holding the webhook URL, kept out of the command line");
  command.add_flag("--dry-run", flags.dry_run,
                   "send no call that changes the fleet or the CI server; log each instead");
}

// A webhook URL often is a secret (Slack's and Teams' are): in argv every local user reads
// it from /proc/PID/cmdline, so the flag is warned about and --webhook-file offered instead.
std::optional<std::string> add_webhook_file(const flag_values& flags,
                                            std::vector<config_override>& overrides) {
  const bool in_argv = std::any_of(overrides.begin(), overrides.end(),
                                   [](const auto& given) { return given.label == "--webhook"; });
  if (in_argv)
    std::cerr << "runwarden: warning: --webhook puts the URL on the command line, where every "
                 "local user can read it (/proc/PID/cmdline, ps); use --webhook-file PATH or "
                 "webhook.url in the config file\n";
  if (flags.webhook_file.empty()) return std::nullopt;
  if (in_argv) return "--webhook and --webhook-file exclude each other";
  auto read = read_secret_file(flags.webhook_file, "webhook URL file");
  if (!read.secret) return read.error;
  overrides.push_back({"webhook.url", std::move(*read.secret), "--webhook-file"});
  return std::nullopt;
}

std::vector<config_override> overrides_from(const flag_values& flags) {
  std::vector<config_override> overrides;
  if (flags.dry_run) overrides.push_back({"run.dry_run", "true", "--dry-run"});
  for (std::size_t index = 0; index < flags.specs.size(); ++index) {
    if (flags.values[index])
      overrides.push_back(
          {flags.specs[index]->key, *flags.values[index], flags.specs[index]->flag});
  }
  return overrides;
}

int report_errors(const std::vector<std::string>& errors, int exit_code) {
  for (const auto& error : errors) std::cerr << "runwarden: " << error << '\n';
  return exit_code;
}

// Loads the file over `base`, puts the command in, applies the flags, and checks the whole.
std::optional<settings> merged_settings(const flag_values& flags, std::vector<std::string> command,
                                        settings base, int& exit_code) {
  settings config = std::move(base);
  if (!flags.config_path.empty()) {
    auto loaded = load_config_file(flags.config_path, std::move(config));
    for (const auto& warning : loaded.warnings)
      std::cerr << "runwarden: warning: " << warning << '\n';
    if (!loaded.config) {
      exit_code = report_errors(loaded.errors, exit_config);
      return std::nullopt;
    }
    config = std::move(*loaded.config);
  }
  if (!command.empty()) config.runner.command = std::move(command);
  auto overrides = overrides_from(flags);
  if (auto problem = add_webhook_file(flags, overrides)) {
    exit_code = report_errors({*problem}, exit_usage);
    return std::nullopt;
  }
  auto merged = apply_overrides(std::move(config), std::move(overrides));
  if (!merged.config) {
    exit_code = report_errors(merged.errors, exit_usage);
    return std::nullopt;
  }
  if (auto errors = check_merged_settings(*merged.config); !errors.empty()) {
    exit_code = report_errors(errors, exit_usage);
    return std::nullopt;
  }
  return std::move(merged.config);
}

int run(const flag_values& flags, std::vector<std::string> command) {
  int exit_code = exit_usage;
  auto config = merged_settings(flags, std::move(command), settings{}, exit_code);
  if (!config) return exit_code;
  if (auto problem = setup_logging(config->log)) return report_errors({*problem}, exit_config);
  return run_warden(*config);
}

int run_wrapper(const flag_values& flags, std::vector<std::string> command) {
  int exit_code = exit_usage;
  auto config =
      merged_settings(flags, wrapper_command(std::move(command)), wrapper_defaults(), exit_code);
  if (!config) return exit_code;
  if (auto errors = check_wrapper(*config); !errors.empty())
    return report_errors(errors, exit_usage);
  find_gitlab_config(*config, process_environment(), ::geteuid() == 0);
  if (auto problem = setup_logging(config->log)) return report_errors({*problem}, exit_config);
  return run_warden(*config);
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
  flag_values flags;
  auto* run_command = app.add_subcommand("run", "supervise COMMAND: runwarden run -- COMMAND");
  add_config_flag(*run_command, flags);
  add_flags(*run_command, flags, run_flag_specs);
  flag_values wrapper_flags;
  auto* wrapper = app.add_subcommand(
      "wrapper", "a drop-in for `gitlab-runner wrapper`: runwarden wrapper -- gitlab-runner run");
  add_config_flag(*wrapper, wrapper_flags);
  add_flags(*wrapper, wrapper_flags, run_flag_specs, flags_not_for_wrapper);
  add_flags(*wrapper, wrapper_flags, wrapper_flag_specs);
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
  if (wrapper->parsed()) return run_wrapper(wrapper_flags, std::move(command));
  return run(flags, std::move(command));
}

}  // namespace runwarden

#pragma once
// Everything `runwarden run` can be told, with its default. The TOML file fills it, flags
// override it, and config/runwarden.toml documents each key. Defaults live here only.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/runner/runner_kind.hpp"
#include "src/supervision/restart_policy.hpp"

namespace runwarden {

enum class output_mode : std::uint8_t { log, inherit };
enum class log_format : std::uint8_t { text, json };

struct runner_settings {
  // Empty means "decide from the command": gitlab for gitlab-runner, generic otherwise.
  std::optional<runner_kind_name> kind;
  std::vector<std::string> command;  // argv, byte for byte; the flags' `-- COMMAND` wins
  output_mode output = output_mode::log;
  // Only for the generic kind; gitlab's signals are fixed by gitlab-runner itself.
  std::optional<int> graceful_signal;
  std::optional<int> forceful_signal;
};

struct drain_settings {
  // No deadline by default: jobs may take as long as they take.
  std::optional<std::chrono::milliseconds> timeout;
  // After the forceful signal, how long before SIGKILL.
  std::chrono::milliseconds kill_timeout{std::chrono::seconds{10}};
};

struct log_settings {
  std::string level = "info";  // trace, debug, info, warn, error, critical, off
  log_format format = log_format::text;
};

struct settings {
  runner_settings runner;
  restart_settings restart;
  drain_settings drain;
  log_settings log;
};

}  // namespace runwarden

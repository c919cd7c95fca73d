#pragma once
// runwarden's logs: spdlog, human text by default or one JSON object per line. Two loggers:
// "warden" for runwarden's own decisions and "runner" for the runner's captured output.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <spdlog/formatter.h>
#include <spdlog/logger.h>

#include "src/logging/log_settings.hpp"

namespace runwarden {

// Installs both loggers writing to stderr. Returns an error text for an unknown level.
std::optional<std::string> setup_logging(const log_settings& settings);

std::optional<spdlog::level::level_enum> parse_log_level(std::string_view text);
// How a line is written to stderr in `format`: the same for runwarden run and a host.
std::unique_ptr<spdlog::formatter> log_line_formatter(log_format format);
std::optional<log_format> parse_log_format(std::string_view text);

// Valid after setup_logging; before it (and in tests) they log to stderr as text.
std::shared_ptr<spdlog::logger> warden_logger();
std::shared_ptr<spdlog::logger> runner_logger();

}  // namespace runwarden

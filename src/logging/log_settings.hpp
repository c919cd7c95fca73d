#pragma once
// The [log] table of settings (config/runwarden.toml): how much runwarden logs, and in which
// form. It lives with the logging it configures; src/config/settings.hpp gathers it with the
// others.

#include <cstdint>
#include <string>

namespace runwarden {

enum class log_format : std::uint8_t { text, json };

struct log_settings {
  std::string level = "info";  // trace, debug, info, warn, error, critical, off
  log_format format = log_format::text;
};

}  // namespace runwarden

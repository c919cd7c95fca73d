#pragma once
// A runner kind says how a given CI runner wants to be stopped. gitlab-runner drains on
// SIGQUIT (finish running jobs, take no new ones) and aborts on SIGTERM or SIGINT; a second
// signal during a graceful drain means forceful to it. Adding a kind is one table row.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace runwarden {

enum class runner_kind_name : std::uint8_t { gitlab, generic };

struct runner_kind {
  runner_kind_name name;
  std::string_view text;
  int graceful_signal;
  int forceful_signal;
  bool signals_configurable;  // only generic lets the config choose its signals
};

const runner_kind& kind_of(runner_kind_name name);
std::span<const runner_kind> known_runner_kinds();
std::optional<runner_kind_name> parse_runner_kind(std::string_view text);

// The kind a command implies when none is configured: gitlab for a `gitlab-runner`
// executable (any directory), generic for everything else.
runner_kind_name guess_runner_kind(std::string_view executable);

}  // namespace runwarden

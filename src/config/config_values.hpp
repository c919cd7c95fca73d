#pragma once
// Readers for the keys whose values are more than a type and a range, each named after its
// key. config_schema.cpp binds them to their rows; each returns whether the value was
// accepted, and stores it in the settings when it was.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_runner_kind(config_value& value);
// A command as argv (an array of strings, run without a shell); `described` names the
// type in a refusal, `when_empty` says what to do instead of an empty array.
std::optional<std::vector<std::string>> expect_argv(config_value& value, std::string_view described,
                                                    std::string_view when_empty);
bool read_runner_command(config_value& value);
bool read_runner_output(config_value& value);
// A signal name ("SIGTERM", "term") or number, for graceful_signal and forceful_signal.
std::optional<int> expect_signal(config_value& value);
bool read_restart_policy(config_value& value);
bool read_restart_jitter(config_value& value);
bool read_drain_timeout(config_value& value);
// A duration up to a minute.
bool read_drain_start_grace(config_value& value);
// "none" (never alongside) or a positive duration.
bool read_drain_unregister_alongside_below(config_value& value);
bool read_grpc_listen(config_value& value);
bool read_http_listen(config_value& value);
// "forever", or a duration ("0s": exit at gone).
bool read_linger_after_gone(config_value& value);
// An http:// or https:// URL with a host; `when_empty` says what to write instead of "".
std::optional<std::string> expect_http_url(config_value& value, std::string_view when_empty);
bool read_metrics_url(config_value& value);
bool read_webhook_url(config_value& value);
bool read_log_format(config_value& value);

}  // namespace runwarden

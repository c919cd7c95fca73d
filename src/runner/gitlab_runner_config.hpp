#pragma once
// What runwarden learns from gitlab-runner's own config.toml, so that a user configures
// nothing twice: where the runner serves /metrics (listen_address), how many jobs it runs at
// once (concurrent), and each [[runners]] entry's name, GitLab URL, token and job limit; plus
// the runner's system id, which gitlab-runner keeps in `.runner_system_id` beside the file.
// Keys runwarden does not need are ignored: the file is gitlab-runner's, not ours.
//
// Tokens are held as secret_text and never appear in an error: errors name the file, the
// line and the key only. Reading the files is gitlab_runner_config_loader.hpp's job.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/util/secret_text.hpp"

namespace runwarden {

struct gitlab_runner_entry {
  std::string name;
  std::string url;      // the GitLab instance, e.g. "https://gitlab.com"
  std::int64_t id = 0;  // the runner's id in GitLab (`id`); 0 when the entry has none
  // "glrt-..." for runners created in GitLab 16+, else legacy. Empty (or blank) when the
  // entry has none: gitlab-runner 19.1+ then skips the entry with a warning (HasToken(),
  // commands/multi.go feedRunner), so it is no error here either; see has_token().
  secret_text token;
  std::int64_t jobs_max = 0;  // the entry's `limit`; 0: no limit
  std::size_t line = 0;       // where the entry starts in the file
};

// gitlab-runner's RunnerCredentials.HasToken() (common/config.go, 19.1+): a token that is not
// empty or whitespace only. An entry without one takes no jobs and has nothing to unregister.
bool has_token(const gitlab_runner_entry& entry);

// gitlab-runner's DefaultShutdownTimeout (common/consts.go): how long it gives aborted jobs
// to clean up after the forceful signal when config.toml sets no shutdown_timeout.
inline constexpr std::chrono::seconds gitlab_default_shutdown_timeout{30};

// gitlab-runner's DefaultMetricsServerPort (common/consts.go), for a listen_address that
// names a host only.
inline constexpr std::string_view gitlab_default_metrics_port = "9252";

struct gitlab_runner_config {
  // Empty (absent, or "" as gitlab-runner reads it): the runner serves no /metrics.
  std::optional<std::string> listen_address;
  // shutdown_timeout in seconds; gitlab-runner uses it only when positive (GetShutdownTimeout).
  std::chrono::seconds shutdown_timeout = gitlab_default_shutdown_timeout;
  std::int64_t concurrent = 1;  // gitlab-runner's default when the key is absent
  std::vector<gitlab_runner_entry> runners;
  std::optional<std::string> system_id;  // set by the loader when the file holds one
  std::string system_id_problem;         // why system_id is empty, for the status page
};

struct gitlab_runner_config_result {
  std::optional<gitlab_runner_config> config;  // set exactly when errors is empty
  std::vector<std::string> errors;             // "<file>:<line>: <key>: <problem>"
};

// Checks TOML text as if read from `source_name` (named in the messages). Pure.
gitlab_runner_config_result parse_gitlab_runner_config(std::string_view text,
                                                       std::string_view source_name);

// The system id as gitlab-runner accepts it (commands/internal/configfile/system_id_state.go):
// whitespace trimmed, then `^[sr]_[0-9a-zA-Z]{12}$` ("s_" from the machine id in hex, "r_"
// and twelve random letters and digits of either case); nullopt for anything else. Pure.
std::optional<std::string> parse_system_id(std::string_view text);

// The URL of the runner's /metrics for a listen_address, as gitlab-runner's listenAddress()
// (commands/multi.go) reads it: a host without a port gets port 9252; ":9252" and
// "0.0.0.0:9252" become "http://127.0.0.1:9252/metrics", "[::]:9252" becomes
// "http://[::1]:9252/metrics"; nullopt for an address gitlab-runner cannot listen on
// ("host:", "host:92x", "::1").
std::optional<std::string> metrics_url(std::string_view listen_address);

}  // namespace runwarden

// See gitlab_runner_config.hpp.
#include "src/runner/gitlab_runner_config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <string>
#include <utility>

#include "src/util/time_bounds.hpp"

namespace runwarden {
namespace {

class runner_config_reader {
 public:
  explicit runner_config_reader(std::string_view source_name) : source_name_{source_name} {}

  gitlab_runner_config_result read(const toml::table& root) {
    gitlab_runner_config config;
    if (const toml::node* node = root.get("concurrent"))
      config.concurrent = count(*node, "concurrent").value_or(config.concurrent);
    if (const toml::node* node = root.get("listen_address")) read_listen_address(*node, config);
    if (const toml::node* node = root.get("shutdown_timeout")) {
      // gitlab-runner falls back to its default for zero and negative values alike.
      if (!node->is_integer())
        report(*node, "shutdown_timeout", "expected an integer (seconds)");
      else if (const std::int64_t seconds = **node->as_integer();
               seconds > duration_max_seconds.count())
        report(*node, "shutdown_timeout",
               std::to_string(seconds) + " seconds is longer than runwarden can time: at most " +
                   duration_max_text);
      else if (seconds > 0)
        config.shutdown_timeout = std::chrono::seconds{seconds};
    }
    if (const toml::node* node = root.get("runners")) read_runners(*node, config.runners);
    if (!errors_.empty()) return {std::nullopt, std::move(errors_)};
    return {std::move(config), {}};
  }

 private:
  void report(const toml::node& node, std::string_view key, std::string_view problem) {
    errors_.push_back(std::string{source_name_} + ":" + std::to_string(node.source().begin.line) +
                      ": " + std::string{key} + ": " + std::string{problem});
  }

  // gitlab-runner reads an empty listen_address as "no metrics server", not as a mistake.
  void read_listen_address(const toml::node& node, gitlab_runner_config& config) {
    if (!node.is_string()) return report(node, "listen_address", "expected a string");
    if (auto value = node.value<std::string>(); value && !value->empty())
      config.listen_address = std::move(*value);
  }

  // A non-empty string; the value itself never goes into a message (it may be a token).
  std::optional<std::string> text(const toml::node& node, std::string_view key) {
    const std::optional<std::string> value = node.value<std::string>();
    if (!node.is_string())
      report(node, key, "expected a string");
    else if (value->empty())
      report(node, key, "must not be empty");
    else
      return value;
    return std::nullopt;
  }

  std::optional<std::int64_t> count(const toml::node& node, std::string_view key) {
    if (!node.is_integer()) {
      report(node, key, "expected an integer");
      return std::nullopt;
    }
    const std::int64_t value = **node.as_integer();
    if (value >= 0) return value;
    report(node, key, "must not be negative");
    return std::nullopt;
  }

  void read_runners(const toml::node& node, std::vector<gitlab_runner_entry>& runners) {
    const toml::array* entries = node.as_array();
    if (entries == nullptr) return report(node, "runners", "expected [[runners]] entries");
    for (std::size_t index = 0; index < entries->size(); ++index) {
      const std::string key = "runners[" + std::to_string(index) + "]";
      const toml::table* entry = (*entries)[index].as_table();
      if (entry == nullptr) {
        report((*entries)[index], key, "expected a table");
        continue;
      }
      read_entry(*entry, key, runners.emplace_back());
    }
  }

  void read_entry(const toml::table& entry, const std::string& key, gitlab_runner_entry& runner) {
    runner.line = entry.source().begin.line;
    if (const toml::node* name = entry.get("name"))
      runner.name = text(*name, key + ".name").value_or("");
    const toml::node* url = entry.get("url");
    const toml::node* token = entry.get("token");
    if (url == nullptr)
      report(entry, key, "has no url");
    else
      runner.url = text(*url, key + ".url").value_or("");
    // A missing or empty token is gitlab-runner's "skip this entry" (HasToken()), not a
    // mistake that stops it; the caller skips it too.
    if (token != nullptr && !token->is_string())
      report(*token, key + ".token", "expected a string");
    else if (token != nullptr)
      runner.token = secret_text{token->value<std::string>().value_or("")};
    if (const toml::node* id = entry.get("id")) runner.id = count(*id, key + ".id").value_or(0);
    if (const toml::node* limit = entry.get("limit"))
      runner.jobs_max = count(*limit, key + ".limit").value_or(0);
  }

  std::string_view source_name_;
  std::vector<std::string> errors_;
};

bool is_letter_or_digit(char byte) {
  return (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z') ||
         (byte >= 'A' && byte <= 'Z');
}

// Go's strings.TrimSpace, for the ASCII whitespace a file can hold.
std::string_view trim_space(std::string_view text) {
  constexpr std::string_view space = " \t\n\v\f\r";
  const auto first = text.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

bool all_digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool has_token(const gitlab_runner_entry& entry) {
  return !trim_space(entry.token.reveal()).empty();
}

gitlab_runner_config_result parse_gitlab_runner_config(std::string_view text,
                                                       std::string_view source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& error) {
    const toml::source_position& begin = error.source().begin;
    return {std::nullopt,
            {std::string{source_name} + ":" + std::to_string(begin.line) + ":" +
             std::to_string(begin.column) + ": " + std::string{error.description()}}};
  }
  return runner_config_reader{source_name}.read(root);
}

std::optional<std::string> parse_system_id(std::string_view text) {
  text = trim_space(text);
  constexpr std::size_t id_characters = 12;
  if (text.size() != 2 + id_characters || (text[0] != 's' && text[0] != 'r') || text[1] != '_')
    return std::nullopt;
  if (!std::all_of(text.begin() + 2, text.end(), is_letter_or_digit)) return std::nullopt;
  return std::string{text};
}

std::optional<std::string> metrics_url(std::string_view listen_address) {
  // Go's net.SplitHostPort: a bracketed host, or one colon at most; no port at all means
  // gitlab-runner's default port.
  std::string_view host = listen_address;
  std::string_view port = gitlab_default_metrics_port;
  if (listen_address.starts_with('[')) {
    const std::size_t close = listen_address.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = listen_address.substr(0, close + 1);
    const std::string_view rest = listen_address.substr(close + 1);
    if (!rest.empty()) {
      if (!rest.starts_with(':')) return std::nullopt;
      port = rest.substr(1);
    }
  } else if (const std::size_t colon = listen_address.find(':'); colon != std::string_view::npos) {
    if (listen_address.find(':', colon + 1) != std::string_view::npos) return std::nullopt;
    host = listen_address.substr(0, colon);
    port = listen_address.substr(colon + 1);
  }
  if (port.empty() || !all_digits(port)) return std::nullopt;
  // Listening on every address includes loopback, the way to reach it from beside it.
  std::string host_part{host};
  if (host.empty() || host == "0.0.0.0")
    host_part = "127.0.0.1";
  else if (host == "[::]")
    host_part = "[::1]";
  return "http://" + host_part + ":" + std::string{port} + "/metrics";
}

}  // namespace runwarden

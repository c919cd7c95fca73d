// See gitlab_runner_config.hpp.
#include "src/runner/gitlab_runner_config.hpp"

#include <toml++/toml.h>

#include <string>
#include <utility>

namespace runwarden {
namespace {

class runner_config_reader {
 public:
  explicit runner_config_reader(std::string_view source_name) : source_name_{source_name} {}

  gitlab_runner_config_result read(const toml::table& root) {
    gitlab_runner_config config;
    if (const toml::node* node = root.get("concurrent"))
      config.concurrent = count(*node, "concurrent").value_or(config.concurrent);
    if (const toml::node* node = root.get("listen_address"))
      config.listen_address = text(*node, "listen_address");
    if (const toml::node* node = root.get("runners")) read_runners(*node, config.runners);
    if (!errors_.empty()) return {std::nullopt, std::move(errors_)};
    return {std::move(config), {}};
  }

 private:
  void report(const toml::node& node, std::string_view key, std::string_view problem) {
    errors_.push_back(std::string{source_name_} + ":" + std::to_string(node.source().begin.line) +
                      ": " + std::string{key} + ": " + std::string{problem});
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
    if (token == nullptr)
      report(entry, key, "has no token");
    else if (auto value = text(*token, key + ".token"))
      runner.token = secret_text{std::move(*value)};
    if (const toml::node* limit = entry.get("limit"))
      runner.jobs_max = count(*limit, key + ".limit").value_or(0);
  }

  std::string_view source_name_;
  std::vector<std::string> errors_;
};

bool is_hex_digit(char byte) {
  return (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'f');
}

}  // namespace

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
  while (text.ends_with('\n') || text.ends_with('\r')) text.remove_suffix(1);
  constexpr std::size_t hex_digits = 12;
  if (text.size() != 2 + hex_digits || (text[0] != 's' && text[0] != 'r') || text[1] != '_')
    return std::nullopt;
  for (const char byte : text.substr(2))
    if (!is_hex_digit(byte)) return std::nullopt;
  return std::string{text};
}

std::optional<std::string> metrics_url(std::string_view listen_address) {
  const std::size_t colon = listen_address.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == listen_address.size()) return std::nullopt;
  std::string_view host = listen_address.substr(0, colon);
  const std::string_view port = listen_address.substr(colon + 1);
  for (const char byte : port)
    if (byte < '0' || byte > '9') return std::nullopt;
  // Listening on every address includes loopback, the way to reach it from beside it.
  std::string host_part{host};
  if (host.empty() || host == "0.0.0.0")
    host_part = "127.0.0.1";
  else if (host == "[::]")
    host_part = "[::1]";
  return "http://" + host_part + ":" + std::string{port} + "/metrics";
}

}  // namespace runwarden

#pragma once
// The generic half of reading the config: it walks a parsed TOML document against a table
// of keys (the schema, in config_schema.cpp) and knows no key itself. Each row of the table
// names a small reader that asks a `config_value` for the type and range it needs and stores
// the result; whatever is refused becomes "<file>:<line>: <key>: <problem>", or
// "<label>: <problem>" for a setting given as a command-line flag. Keeping the checks here
// means a new key is one row, and every key words the same problem the same way.

#include <toml++/toml.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/config/config_file.hpp"
#include "src/config/settings.hpp"

namespace runwarden {

class config_value;

// Checks one value and stores it in the settings. Returns false, with the error reported,
// when the value is refused; the setting then keeps what it had.
using key_reader = bool (*)(config_value& value);

struct key_spec {
  std::string_view table;
  std::string_view name;
  key_reader read;
};

// Names to blame in place of keys, such as "--drain-timeout" for "drain.timeout".
using config_labels = std::map<std::string, std::string, std::less<>>;

class config_reader {
 public:
  // Reads on top of `base`; `source_name` is the file named in messages.
  config_reader(std::span<const key_spec> schema, std::string_view source_name, settings base,
                config_labels labels = {});

  void read(const toml::table& root);
  // The settings when no error was reported, and the errors in line order.
  config_result finish() &&;

  settings& config() { return settings_; }
  // Line 0 means the position is unknown (a flag, or a value from `base`).
  void report(std::uint32_t line, std::string_view key, std::string_view problem);
  // Accepted, but said in the result's warnings in the errors' words.
  void warn(std::uint32_t line, std::string_view key, std::string_view note);
  // Where the key was set in what was read, if it was set and accepted.
  std::optional<std::uint32_t> accepted_line(std::string_view key) const;
  bool rejected(std::string_view key) const;

 private:
  struct located_error {
    std::uint32_t line;
    std::string message;
  };
  struct key_seen {
    std::uint32_t line;
    bool accepted;
  };

  void read_table(const std::string& table_key, const toml::table& table);
  std::string located(std::uint32_t line, std::string_view key, std::string_view text) const;
  void report_unknown(std::uint32_t line, const std::string& key, std::string_view what);
  bool is_known_table(std::string_view table) const;
  const key_spec* find_key(std::string_view table, std::string_view name) const;
  std::optional<std::string> closest_known_key(std::string_view key) const;

  std::span<const key_spec> schema_;
  std::string source_name_;
  settings settings_;
  config_labels labels_;
  std::vector<located_error> errors_;
  std::vector<std::string> warnings_;
  std::map<std::string, key_seen, std::less<>> seen_keys_;
};

// One value under its dotted key, as a reader sees it. Each `expect` function returns the
// value when it has the right type and range, and otherwise reports why and returns nothing.
class config_value {
 public:
  config_value(config_reader& reader, const toml::node& node, std::string key);

  const toml::node& node() const { return node_; }
  const std::string& key() const { return key_; }
  settings& config() { return reader_.config(); }
  // Element `index` of an array value, under the key "<key>[<index>]".
  config_value element(std::size_t index) const;

  void refuse(std::string_view problem);
  void warn(std::string_view note);
  void refuse_type(std::string_view expected);

  std::optional<std::string> expect_string(std::string_view expected = "a string");
  // `when_empty` says what to write instead of an empty string.
  std::optional<std::string> expect_nonempty_string(std::string_view when_empty);
  std::optional<std::string_view> expect_word(std::span<const std::string_view> words);
  std::optional<std::chrono::milliseconds> expect_duration();
  // `why` says what a zero duration would break.
  std::optional<std::chrono::milliseconds> expect_positive_duration(std::string_view why);
  std::optional<std::int64_t> expect_integer(std::int64_t min, std::int64_t max);
  std::optional<bool> expect_bool();

 private:
  config_reader& reader_;
  const toml::node& node_;
  std::string key_;
};

// Stores what an `expect` function returned, for readers that are one line. Integers arrive
// already checked against the target's range, so the cast cannot narrow.
template <typename value_type, typename target_type>
bool store(std::optional<value_type> value, target_type& target) {
  if (!value) return false;
  target = static_cast<target_type>(std::move(*value));
  return true;
}

}  // namespace runwarden

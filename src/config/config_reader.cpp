// Checks a parsed TOML document against the schema: each key the document names is looked
// up there (an unknown one is reported with the closest known key) and handed to its row's
// reader. Errors are collected in line order, and only a document without any yields
// settings, so a typo never runs with a default.

#include "src/config/config_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <utility>

#include "src/util/assert.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

// Typos within this many edits of a known key get a "did you mean" suggestion.
constexpr std::size_t suggestion_distance_max = 2;

std::uint32_t line_of(const toml::node& node) { return node.source().begin.line; }

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::none:
      return "nothing";
    case toml::node_type::table:
      return "table";
    case toml::node_type::array:
      return "array";
    case toml::node_type::string:
      return "string";
    case toml::node_type::integer:
      return "integer";
    case toml::node_type::floating_point:
      return "float";
    case toml::node_type::boolean:
      return "boolean";
    case toml::node_type::date:
      return "date";
    case toml::node_type::time:
      return "time";
    case toml::node_type::date_time:
      return "date-time";
  }
  return "unknown type";  // Only a value cast from outside the enum gets here.
}

// "\"a\", \"b\" or \"c\"", for messages that list the allowed values.
std::string word_list(std::span<const std::string_view> words) {
  std::string list;
  for (std::size_t index = 0; index < words.size(); ++index) {
    if (index > 0) list += index + 1 == words.size() ? " or " : ", ";
    list += fmt::format("\"{}\"", words[index]);
  }
  return list;
}

// Optimal string alignment distance: edits, where swapping two neighbours counts as one.
std::size_t edit_distance(std::string_view from, std::string_view to) {
  std::vector<std::size_t> before(to.size() + 1);
  std::vector<std::size_t> previous(to.size() + 1);
  std::vector<std::size_t> current(to.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t row = 1; row <= from.size(); ++row) {
    current[0] = row;
    for (std::size_t column = 1; column <= to.size(); ++column) {
      const std::size_t cost = from[row - 1] == to[column - 1] ? 0 : 1;
      current[column] =
          std::min({previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost});
      if (row > 1 && column > 1 && from[row - 1] == to[column - 2] &&
          from[row - 2] == to[column - 1]) {
        current[column] = std::min(current[column], before[column - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[to.size()];
}

}  // namespace

config_reader::config_reader(std::span<const key_spec> schema, std::string_view source_name,
                             settings base, config_labels labels)
    : schema_(schema),
      source_name_(source_name),
      settings_(std::move(base)),
      labels_(std::move(labels)) {}

void config_reader::read(const toml::table& root) {
  for (auto&& [name, node] : root) {
    const std::string table_key{name.str()};
    if (!is_known_table(table_key)) {
      report_unknown(name.source().begin.line, table_key, node.is_table() ? "table" : "key");
      continue;
    }
    const toml::table* table = node.as_table();
    if (table == nullptr) {
      config_value{*this, node, table_key}.refuse_type("a table");
      continue;
    }
    read_table(table_key, *table);
  }
}

void config_reader::read_table(const std::string& table_key, const toml::table& table) {
  for (auto&& [name, node] : table) {
    const std::string key = fmt::format("{}.{}", table_key, name.str());
    // A sub-table such as [unregister.gitlab] is a table of the schema named with a dot.
    if (is_known_table(key)) {
      if (const toml::table* sub_table = node.as_table()) {
        read_table(key, *sub_table);
      } else {
        config_value{*this, node, key}.refuse_type("a table");
      }
      continue;
    }
    const key_spec* spec = find_key(table_key, name.str());
    if (spec == nullptr) {
      report_unknown(name.source().begin.line, key, node.is_table() ? "table" : "key");
      continue;
    }
    config_value value{*this, node, key};
    const bool accepted = spec->read(value);
    seen_keys_[key] = key_seen{line_of(node), accepted};
  }
}

config_result config_reader::finish() && {
  std::stable_sort(
      errors_.begin(), errors_.end(),
      [](const located_error& left, const located_error& right) { return left.line < right.line; });
  config_result result;
  for (located_error& error : errors_) result.errors.push_back(std::move(error.message));
  result.warnings = std::move(warnings_);
  if (result.errors.empty()) result.config = std::move(settings_);
  return result;
}

void config_reader::report(std::uint32_t line, std::string_view key, std::string_view problem) {
  errors_.push_back(located_error{line, located(line, key, problem)});
}

void config_reader::warn(std::uint32_t line, std::string_view key, std::string_view note) {
  warnings_.push_back(located(line, key, note));
}

std::string config_reader::located(std::uint32_t line, std::string_view key,
                                   std::string_view text) const {
  if (const auto label = labels_.find(key); label != labels_.end())
    return fmt::format("{}: {}", label->second, text);
  return line == 0 ? fmt::format("{}: {}: {}", source_name_, key, text)
                   : fmt::format("{}:{}: {}: {}", source_name_, line, key, text);
}

std::optional<std::uint32_t> config_reader::accepted_line(std::string_view key) const {
  const auto found = seen_keys_.find(key);
  if (found == seen_keys_.end() || !found->second.accepted) return std::nullopt;
  return found->second.line;
}

bool config_reader::rejected(std::string_view key) const {
  const auto found = seen_keys_.find(key);
  return found != seen_keys_.end() && !found->second.accepted;
}

void config_reader::report_unknown(std::uint32_t line, const std::string& key,
                                   std::string_view what) {
  const std::optional<std::string> suggestion = closest_known_key(key);
  report(line, key,
         suggestion ? fmt::format("unknown {} (did you mean {}?)", what, *suggestion)
                    : fmt::format("unknown {}", what));
}

bool config_reader::is_known_table(std::string_view table) const {
  return std::any_of(schema_.begin(), schema_.end(),
                     [&](const key_spec& spec) { return spec.table == table; });
}

const key_spec* config_reader::find_key(std::string_view table, std::string_view name) const {
  for (const key_spec& spec : schema_) {
    if (spec.table == table && spec.name == name) return &spec;
  }
  return nullptr;
}

// The known table or key closest to a misspelt one; failing that, a known key of the same
// name in another table, since "[restart] kill_timeout" most likely means drain's.
std::optional<std::string> config_reader::closest_known_key(std::string_view key) const {
  std::optional<std::string> best;
  std::size_t best_distance = suggestion_distance_max + 1;
  for (const key_spec& spec : schema_) {
    for (std::string candidate :
         {std::string{spec.table}, fmt::format("{}.{}", spec.table, spec.name)}) {
      const std::size_t length_gap =
          std::max(candidate.size(), key.size()) - std::min(candidate.size(), key.size());
      if (length_gap >= best_distance) continue;  // cheap bound before the quadratic work
      const std::size_t distance = edit_distance(key, candidate);
      if (distance < best_distance) {
        best_distance = distance;
        best = std::move(candidate);
      }
    }
  }
  if (best) return best;
  const std::string_view name = key.substr(key.rfind('.') + 1);
  for (const key_spec& spec : schema_) {
    if (spec.name == name) return fmt::format("{}.{}", spec.table, spec.name);
  }
  return std::nullopt;
}

config_value::config_value(config_reader& reader, const toml::node& node, std::string key)
    : reader_(reader), node_(node), key_(std::move(key)) {}

config_value config_value::element(std::size_t index) const {
  const toml::array* array = node_.as_array();
  RUNWARDEN_ASSERT(array != nullptr && index < array->size());
  return config_value{reader_, (*array)[index], fmt::format("{}[{}]", key_, index)};
}

void config_value::refuse(std::string_view problem) {
  reader_.report(line_of(node_), key_, problem);
}

void config_value::warn(std::string_view note) { reader_.warn(line_of(node_), key_, note); }

void config_value::refuse_type(std::string_view expected) {
  refuse(fmt::format("expected {}, got {}", expected, type_name(node_)));
}

std::optional<std::string> config_value::expect_string(std::string_view expected) {
  const toml::value<std::string>* text = node_.as_string();
  if (text == nullptr) {
    refuse_type(expected);
    return std::nullopt;
  }
  return text->get();
}

std::optional<std::string> config_value::expect_nonempty_string(std::string_view when_empty) {
  std::optional<std::string> text = expect_string();
  if (text && text->empty()) {
    refuse(fmt::format("must not be empty ({})", when_empty));
    return std::nullopt;
  }
  return text;
}

std::optional<std::string_view> config_value::expect_word(std::span<const std::string_view> words) {
  const std::optional<std::string> text = expect_string();
  if (!text) return std::nullopt;
  for (const std::string_view word : words) {
    if (word == *text) return word;
  }
  refuse(fmt::format("unknown value \"{}\" (expected {})", *text, word_list(words)));
  return std::nullopt;
}

std::optional<std::chrono::milliseconds> config_value::expect_duration() {
  const std::optional<std::string> text = expect_string("a duration string such as \"10s\"");
  if (!text) return std::nullopt;
  const duration_parse_result parsed = parse_duration(*text);
  if (!parsed.value) refuse(parsed.error);
  return parsed.value;
}

std::optional<std::chrono::milliseconds> config_value::expect_positive_duration(
    std::string_view why) {
  const std::optional<std::chrono::milliseconds> duration = expect_duration();
  if (duration && duration->count() == 0) {
    refuse(fmt::format("must be greater than zero ({})", why));
    return std::nullopt;
  }
  return duration;
}

std::optional<std::int64_t> config_value::expect_integer(std::int64_t min, std::int64_t max) {
  RUNWARDEN_ASSERT(min <= max);
  const toml::value<std::int64_t>* integer = node_.as_integer();
  if (integer == nullptr) {
    refuse_type("an integer");
    return std::nullopt;
  }
  if (integer->get() < min || integer->get() > max) {
    refuse(fmt::format("{} is not between {} and {}", integer->get(), min, max));
    return std::nullopt;
  }
  return integer->get();
}

std::optional<bool> config_value::expect_bool() {
  const toml::value<bool>* boolean = node_.as_boolean();
  if (boolean == nullptr) {
    refuse_type("true or false");
    return std::nullopt;
  }
  return boolean->get();
}

}  // namespace runwarden

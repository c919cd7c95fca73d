// Checks a parsed TOML document against one schema table: each key the file names is
// looked up there (an unknown one is reported with the closest known key), its reader
// checks type and value, and checks that span keys run last. Errors are collected in line
// order, and only a file without any yields settings, so a typo never runs with a default.

#include "src/app/config_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <span>
#include <system_error>

#include "src/runner/signal_names.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

// A config file is a page of settings; anything this large is the wrong file.
constexpr std::size_t config_file_size_max = 1024 * 1024;
constexpr std::size_t read_chunk_size = 64 * 1024;
// Typos within this many edits of a known key get a "did you mean" suggestion.
constexpr std::size_t suggestion_distance_max = 2;

constexpr std::array<std::string_view, 2> output_words{"log", "inherit"};
constexpr std::array<std::string_view, 2> format_words{"text", "json"};
constexpr std::array<std::string_view, 7> level_words{"trace", "debug",    "info", "warn",
                                                      "error", "critical", "off"};

struct located_error {
  std::uint32_t line;  // 0 when the position is unknown
  std::string message;
};

struct key_seen {
  std::uint32_t line;
  bool accepted;
};

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

class config_reader {
 public:
  // Reads on top of `base`. `labels` renames keys in messages (a flag for its key).
  config_reader(std::string_view source_name, settings base,
                std::map<std::string, std::string, std::less<>> labels = {})
      : source_name_(source_name), settings_(std::move(base)), labels_(std::move(labels)) {}

  void read(const toml::table& root);
  config_result finish() &&;

  // One reader per schema key. Each checks the value, stores it in settings_ and returns
  // whether it was accepted; a rejected value leaves the default and an error behind.
  bool read_kind(const toml::node& value, const std::string& key);
  bool read_command(const toml::node& value, const std::string& key);
  bool read_output(const toml::node& value, const std::string& key);
  bool read_graceful_signal(const toml::node& value, const std::string& key);
  bool read_forceful_signal(const toml::node& value, const std::string& key);
  bool read_policy(const toml::node& value, const std::string& key);
  bool read_backoff_initial(const toml::node& value, const std::string& key);
  bool read_backoff_max(const toml::node& value, const std::string& key);
  bool read_jitter(const toml::node& value, const std::string& key);
  bool read_budget_restarts(const toml::node& value, const std::string& key);
  bool read_budget_window(const toml::node& value, const std::string& key);
  bool read_drain_timeout(const toml::node& value, const std::string& key);
  bool read_kill_timeout(const toml::node& value, const std::string& key);
  bool read_level(const toml::node& value, const std::string& key);
  bool read_format(const toml::node& value, const std::string& key);

 private:
  void read_table(const std::string& table_key, const toml::table& table);
  void report(std::uint32_t line, std::string_view key, std::string_view problem);
  void report(const toml::node& at, std::string_view key, std::string_view problem);
  void report_type(const toml::node& at, std::string_view key, std::string_view expected);
  void report_unknown(std::uint32_t line, const std::string& key, std::string_view what);
  const std::string* expect_string(const toml::node& value, std::string_view key,
                                   std::string_view expected);
  std::optional<std::string_view> expect_word(const toml::node& value, const std::string& key,
                                              std::span<const std::string_view> words);
  std::optional<std::chrono::milliseconds> expect_duration(const toml::node& value,
                                                           const std::string& key);
  std::optional<std::chrono::milliseconds> expect_positive_duration(const toml::node& value,
                                                                    const std::string& key,
                                                                    std::string_view why);
  bool read_signal(const toml::node& value, const std::string& key, std::optional<int>& target);
  void check_signals_allowed();
  void check_backoff_order();
  std::optional<std::uint32_t> accepted_line(std::string_view key) const;
  bool rejected(std::string_view key) const;

  std::string source_name_;
  settings settings_;
  std::map<std::string, std::string, std::less<>> labels_;
  std::vector<located_error> errors_;
  std::map<std::string, key_seen, std::less<>> seen_keys_;
};

using key_reader = bool (config_reader::*)(const toml::node&, const std::string&);

struct key_spec {
  std::string_view table;
  std::string_view name;
  key_reader read;
};

// The whole file format. config/runwarden.toml documents each row.
constexpr std::array<key_spec, 15> schema{{
    {"runner", "kind", &config_reader::read_kind},
    {"runner", "command", &config_reader::read_command},
    {"runner", "output", &config_reader::read_output},
    {"runner", "graceful_signal", &config_reader::read_graceful_signal},
    {"runner", "forceful_signal", &config_reader::read_forceful_signal},
    {"restart", "policy", &config_reader::read_policy},
    {"restart", "backoff_initial", &config_reader::read_backoff_initial},
    {"restart", "backoff_max", &config_reader::read_backoff_max},
    {"restart", "jitter", &config_reader::read_jitter},
    {"restart", "budget_restarts", &config_reader::read_budget_restarts},
    {"restart", "budget_window", &config_reader::read_budget_window},
    {"drain", "timeout", &config_reader::read_drain_timeout},
    {"drain", "kill_timeout", &config_reader::read_kill_timeout},
    {"log", "level", &config_reader::read_level},
    {"log", "format", &config_reader::read_format},
}};

bool is_known_table(std::string_view table) {
  return std::any_of(schema.begin(), schema.end(),
                     [&](const key_spec& spec) { return spec.table == table; });
}

const key_spec* find_key(std::string_view table, std::string_view name) {
  for (const key_spec& spec : schema) {
    if (spec.table == table && spec.name == name) return &spec;
  }
  return nullptr;
}

// The known table or key closest to a misspelt one; failing that, a known key of the same
// name in another table, since "[restart] kill_timeout" most likely means drain's.
std::optional<std::string> closest_known_key(std::string_view key) {
  std::optional<std::string> best;
  std::size_t best_distance = suggestion_distance_max + 1;
  for (const key_spec& spec : schema) {
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
  for (const key_spec& spec : schema) {
    if (spec.name == name) return fmt::format("{}.{}", spec.table, spec.name);
  }
  return std::nullopt;
}

void config_reader::read(const toml::table& root) {
  for (auto&& [name, node] : root) {
    const std::string table_key{name.str()};
    if (!is_known_table(table_key)) {
      report_unknown(name.source().begin.line, table_key, node.is_table() ? "table" : "key");
      continue;
    }
    const toml::table* table = node.as_table();
    if (table == nullptr) {
      report_type(node, table_key, "a table");
      continue;
    }
    read_table(table_key, *table);
  }
}

void config_reader::read_table(const std::string& table_key, const toml::table& table) {
  for (auto&& [name, node] : table) {
    const std::string key = fmt::format("{}.{}", table_key, name.str());
    const key_spec* spec = find_key(table_key, name.str());
    if (spec == nullptr) {
      report_unknown(name.source().begin.line, key, node.is_table() ? "table" : "key");
      continue;
    }
    const bool accepted = (this->*spec->read)(node, key);
    seen_keys_[key] = key_seen{line_of(node), accepted};
  }
}

config_result config_reader::finish() && {
  check_signals_allowed();
  check_backoff_order();
  std::stable_sort(
      errors_.begin(), errors_.end(),
      [](const located_error& left, const located_error& right) { return left.line < right.line; });
  config_result result;
  for (located_error& error : errors_) result.errors.push_back(std::move(error.message));
  if (result.errors.empty()) result.config = std::move(settings_);
  return result;
}

void config_reader::report(std::uint32_t line, std::string_view key, std::string_view problem) {
  if (const auto label = labels_.find(key); label != labels_.end()) {
    errors_.push_back(located_error{line, fmt::format("{}: {}", label->second, problem)});
    return;
  }
  std::string message = line == 0 ? fmt::format("{}: {}: {}", source_name_, key, problem)
                                  : fmt::format("{}:{}: {}: {}", source_name_, line, key, problem);
  errors_.push_back(located_error{line, std::move(message)});
}

void config_reader::report(const toml::node& at, std::string_view key, std::string_view problem) {
  report(line_of(at), key, problem);
}

void config_reader::report_type(const toml::node& at, std::string_view key,
                                std::string_view expected) {
  report(at, key, fmt::format("expected {}, got {}", expected, type_name(at)));
}

void config_reader::report_unknown(std::uint32_t line, const std::string& key,
                                   std::string_view what) {
  const std::optional<std::string> suggestion = closest_known_key(key);
  report(line, key,
         suggestion ? fmt::format("unknown {} (did you mean {}?)", what, *suggestion)
                    : fmt::format("unknown {}", what));
}

const std::string* config_reader::expect_string(const toml::node& value, std::string_view key,
                                                std::string_view expected) {
  const toml::value<std::string>* text = value.as_string();
  if (text == nullptr) {
    report_type(value, key, expected);
    return nullptr;
  }
  return &text->get();
}

std::optional<std::string_view> config_reader::expect_word(
    const toml::node& value, const std::string& key, std::span<const std::string_view> words) {
  const std::string* text = expect_string(value, key, "a string");
  if (text == nullptr) return std::nullopt;
  for (const std::string_view word : words) {
    if (word == *text) return word;
  }
  report(value, key, fmt::format("unknown value \"{}\" (expected {})", *text, word_list(words)));
  return std::nullopt;
}

std::optional<std::chrono::milliseconds> config_reader::expect_duration(const toml::node& value,
                                                                        const std::string& key) {
  const std::string* text = expect_string(value, key, "a duration string such as \"10s\"");
  if (text == nullptr) return std::nullopt;
  const duration_parse_result parsed = parse_duration(*text);
  if (!parsed.value) report(value, key, parsed.error);
  return parsed.value;
}

std::optional<std::chrono::milliseconds> config_reader::expect_positive_duration(
    const toml::node& value, const std::string& key, std::string_view why) {
  const std::optional<std::chrono::milliseconds> duration = expect_duration(value, key);
  if (duration && duration->count() == 0) {
    report(value, key, fmt::format("must be greater than zero ({})", why));
    return std::nullopt;
  }
  return duration;
}

bool config_reader::read_kind(const toml::node& value, const std::string& key) {
  std::vector<std::string_view> words;
  for (const runner_kind& kind : known_runner_kinds()) words.push_back(kind.text);
  const std::optional<std::string_view> word = expect_word(value, key, words);
  if (!word) return false;
  settings_.runner.kind = parse_runner_kind(*word);
  return true;
}

bool config_reader::read_command(const toml::node& value, const std::string& key) {
  const toml::array* array = value.as_array();
  if (array == nullptr) {
    report_type(value, key, "an array of strings");
    return false;
  }
  if (array->empty()) {
    report(value, key,
           "must not be empty (leave the key out to give the command after -- instead)");
    return false;
  }
  std::vector<std::string> command;
  for (std::size_t index = 0; index < array->size(); ++index) {
    const std::string element_key = fmt::format("{}[{}]", key, index);
    const std::string* text = expect_string((*array)[index], element_key, "a string");
    if (text != nullptr) command.push_back(*text);
  }
  if (command.size() != array->size()) return false;
  if (command.front().empty()) {
    report((*array)[0], key + "[0]", "the executable must not be empty");
    return false;
  }
  settings_.runner.command = std::move(command);
  return true;
}

bool config_reader::read_output(const toml::node& value, const std::string& key) {
  const std::optional<std::string_view> word = expect_word(value, key, output_words);
  if (!word) return false;
  settings_.runner.output = *word == "inherit" ? output_mode::inherit : output_mode::log;
  return true;
}

bool config_reader::read_graceful_signal(const toml::node& value, const std::string& key) {
  return read_signal(value, key, settings_.runner.graceful_signal);
}

bool config_reader::read_forceful_signal(const toml::node& value, const std::string& key) {
  return read_signal(value, key, settings_.runner.forceful_signal);
}

bool config_reader::read_signal(const toml::node& value, const std::string& key,
                                std::optional<int>& target) {
  std::string written;
  if (const toml::value<std::int64_t>* integer = value.as_integer()) {
    written = std::to_string(integer->get());
  } else if (const toml::value<std::string>* text = value.as_string()) {
    written = text->get();
  } else {
    report_type(value, key, "a signal name such as \"SIGTERM\"");
    return false;
  }
  const std::optional<int> number = parse_signal_name(written);
  if (!number) {
    report(value, key,
           fmt::format("unknown signal \"{}\" (write a name such as \"SIGTERM\" or a number "
                       "from 1 to 64)",
                       written));
    return false;
  }
  target = number;
  return true;
}

bool config_reader::read_policy(const toml::node& value, const std::string& key) {
  const std::array<std::string_view, 3> words{to_string(restart_type::permanent),
                                              to_string(restart_type::transient),
                                              to_string(restart_type::temporary)};
  const std::optional<std::string_view> word = expect_word(value, key, words);
  if (!word) return false;
  settings_.restart.type = *parse_restart_type(*word);
  return true;
}

bool config_reader::read_backoff_initial(const toml::node& value, const std::string& key) {
  const auto duration = expect_positive_duration(
      value, key, "a zero backoff would restart a failing runner in a tight loop");
  if (!duration) return false;
  settings_.restart.backoff_initial = *duration;
  return true;
}

bool config_reader::read_backoff_max(const toml::node& value, const std::string& key) {
  const auto duration = expect_duration(value, key);
  if (!duration) return false;
  settings_.restart.backoff_max = *duration;
  return true;
}

bool config_reader::read_jitter(const toml::node& value, const std::string& key) {
  double jitter = 0;
  if (const toml::value<double>* number = value.as_floating_point()) {
    jitter = number->get();
  } else if (const toml::value<std::int64_t>* integer = value.as_integer()) {
    jitter = static_cast<double>(integer->get());
  } else {
    report_type(value, key, "a number from 0 to 1");
    return false;
  }
  // Written so that NaN fails too.
  if (!(jitter >= 0.0 && jitter <= 1.0)) {
    report(value, key,
           fmt::format("{} is not between 0 and 1 (the fraction of each delay drawn at random)",
                       jitter));
    return false;
  }
  settings_.restart.jitter = jitter;
  return true;
}

bool config_reader::read_budget_restarts(const toml::node& value, const std::string& key) {
  const toml::value<std::int64_t>* integer = value.as_integer();
  if (integer == nullptr) {
    report_type(value, key, "an integer");
    return false;
  }
  constexpr std::int64_t restarts_max = std::numeric_limits<std::uint32_t>::max();
  if (integer->get() < 0 || integer->get() > restarts_max) {
    report(value, key, fmt::format("{} is not between 0 and {}", integer->get(), restarts_max));
    return false;
  }
  settings_.restart.budget_restarts_max = static_cast<std::uint32_t>(integer->get());
  return true;
}

bool config_reader::read_budget_window(const toml::node& value, const std::string& key) {
  const auto duration =
      expect_positive_duration(value, key, "the budget counts restarts within this window");
  if (!duration) return false;
  settings_.restart.budget_window = *duration;
  return true;
}

bool config_reader::read_drain_timeout(const toml::node& value, const std::string& key) {
  const std::string* text =
      expect_string(value, key, "\"none\" or a duration string such as \"2h\"");
  if (text == nullptr) return false;
  if (*text == "none") {
    settings_.drain.timeout.reset();
    return true;
  }
  const duration_parse_result parsed = parse_duration(*text);
  if (!parsed.value) {
    report(value, key, fmt::format("{}; write \"none\" for no deadline", parsed.error));
    return false;
  }
  if (parsed.value->count() == 0) {
    report(value, key,
           fmt::format("\"{}\" would kill running jobs at once; write \"none\" for no "
                       "deadline or a positive duration such as \"2h\"",
                       *text));
    return false;
  }
  settings_.drain.timeout = parsed.value;
  return true;
}

bool config_reader::read_kill_timeout(const toml::node& value, const std::string& key) {
  const auto duration = expect_positive_duration(
      value, key, "the runner needs a moment to exit between the forceful signal and SIGKILL");
  if (!duration) return false;
  settings_.drain.kill_timeout = *duration;
  return true;
}

bool config_reader::read_level(const toml::node& value, const std::string& key) {
  const std::optional<std::string_view> word = expect_word(value, key, level_words);
  if (!word) return false;
  settings_.log.level = std::string{*word};
  return true;
}

bool config_reader::read_format(const toml::node& value, const std::string& key) {
  const std::optional<std::string_view> word = expect_word(value, key, format_words);
  if (!word) return false;
  settings_.log.format = *word == "json" ? log_format::json : log_format::text;
  return true;
}

// gitlab-runner gives its signals fixed meanings, so choosing them only makes sense for the
// generic kind. A kind guessed from the command is checked later, once flags are applied.
void config_reader::check_signals_allowed() {
  const std::optional<runner_kind_name> name = settings_.runner.kind;
  if (!name || kind_of(*name).signals_configurable) return;
  const runner_kind& kind = kind_of(*name);
  for (const std::string_view key : {"runner.graceful_signal", "runner.forceful_signal"}) {
    const std::optional<std::uint32_t> line = accepted_line(key);
    if (!line) continue;
    report(*line, key,
           fmt::format("cannot be set for kind \"{}\", whose signals are fixed ({} drains, {} "
                       "aborts); use kind = \"generic\" to choose signals",
                       kind.text, signal_name(kind.graceful_signal),
                       signal_name(kind.forceful_signal)));
  }
}

// Reported on backoff_initial when the file sets it, else on backoff_max. Skipped when
// either value was rejected, since the comparison would then be against a default.
void config_reader::check_backoff_order() {
  const restart_settings& restart = settings_.restart;
  if (restart.backoff_initial <= restart.backoff_max) return;
  if (rejected("restart.backoff_initial") || rejected("restart.backoff_max")) return;
  const std::string initial = format_duration(restart.backoff_initial);
  const std::string max = format_duration(restart.backoff_max);
  if (const std::optional<std::uint32_t> line = accepted_line("restart.backoff_initial")) {
    report(*line, "restart.backoff_initial",
           fmt::format("{} is longer than restart.backoff_max ({})", initial, max));
    return;
  }
  report(accepted_line("restart.backoff_max").value_or(0), "restart.backoff_max",
         fmt::format("{} is shorter than restart.backoff_initial ({})", max, initial));
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

std::string os_reason(int error_number) { return std::generic_category().message(error_number); }

struct file_text {
  std::string text;
  std::string error;  // empty when text holds the whole file
};

file_text read_open_file(int descriptor) {
  struct stat status {};
  if (::fstat(descriptor, &status) != 0) return {{}, os_reason(errno)};
  if (S_ISDIR(status.st_mode)) return {{}, os_reason(EISDIR)};
  std::string text;
  std::array<char, read_chunk_size> chunk{};
  // Bounded by config_file_size_max: each pass either ends or grows text.
  while (true) {
    const ssize_t count = ::read(descriptor, chunk.data(), chunk.size());
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return {{}, os_reason(errno)};
    if (count == 0) return {std::move(text), {}};
    if (text.size() + static_cast<std::size_t>(count) > config_file_size_max) {
      return {{}, fmt::format("larger than {} bytes, so not a config file", config_file_size_max)};
    }
    text.append(chunk.data(), static_cast<std::size_t>(count));
  }
}

file_text read_whole_file(const std::filesystem::path& path) {
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return {{}, os_reason(errno)};
  file_text result = read_open_file(descriptor);
  ::close(descriptor);
  return result;
}

}  // namespace

config_result load_config_file(const std::filesystem::path& path) {
  const file_text file = read_whole_file(path);
  if (!file.error.empty()) {
    return {std::nullopt,
            {fmt::format("{}: cannot read config file: {}", path.string(), file.error)}};
  }
  return parse_config_text(file.text, path.string());
}

config_result parse_config_text(std::string_view text, std::string_view source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& error) {
    const toml::source_position& begin = error.source().begin;
    return {
        std::nullopt,
        {fmt::format("{}:{}:{}: {}", source_name, begin.line, begin.column, error.description())}};
  }
  config_reader reader{source_name, settings{}};
  reader.read(root);
  return std::move(reader).finish();
}

config_result apply_overrides(settings base, const std::vector<config_override>& overrides) {
  toml::table root;
  std::map<std::string, std::string, std::less<>> labels;
  for (const config_override& override : overrides) {
    const auto dot = override.key.find('.');
    assert(dot != std::string::npos);
    const auto table_name = override.key.substr(0, dot);
    if (!root.contains(table_name)) root.insert(table_name, toml::table{});
    root[table_name].as_table()->insert_or_assign(override.key.substr(dot + 1), override.value);
    labels[override.key] = override.label;
  }
  config_reader reader{"command line", std::move(base), std::move(labels)};
  reader.read(root);
  return std::move(reader).finish();
}

}  // namespace runwarden

// Turns a file or a list of flags into one TOML document for config_schema.cpp to read. A
// file is read whole through one descriptor, with a size bound, so that a wrong path (a
// device, a log file) is refused quickly and by name; flags become string values under
// their keys, so they meet exactly the checks the file's values meet.

#include "src/config/config_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <system_error>

#include "src/config/config_schema.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// A config file is a page of settings; anything this large is the wrong file.
constexpr std::size_t config_file_size_max = 1024 * 1024;
constexpr std::size_t read_chunk_size = 64 * 1024;

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

config_result load_config_file(const std::filesystem::path& path, settings base) {
  const file_text file = read_whole_file(path);
  if (!file.error.empty()) {
    return {std::nullopt,
            {fmt::format("{}: cannot read config file: {}", path.string(), file.error)},
            {}};
  }
  return parse_config_text(file.text, path.string(), std::move(base));
}

config_result parse_config_text(std::string_view text, std::string_view source_name,
                                settings base) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& error) {
    const toml::source_position& begin = error.source().begin;
    return {
        std::nullopt,
        {fmt::format("{}:{}:{}: {}", source_name, begin.line, begin.column, error.description())},
        {}};
  }
  return read_config(root, source_name, std::move(base));
}

config_result apply_overrides(settings base, const std::vector<config_override>& overrides) {
  toml::table root;
  config_labels labels;
  for (const config_override& override : overrides) {
    const auto dot = override.key.find('.');
    RUNWARDEN_ASSERT(dot != std::string::npos);
    const auto table_name = override.key.substr(0, dot);
    if (!root.contains(table_name)) root.insert(table_name, toml::table{});
    // A flag's text is a string to the file's checks, but for true and false, which the
    // boolean keys take.
    const auto key = override.key.substr(dot + 1);
    if (override.value == "true" || override.value == "false")
      root[table_name].as_table()->insert_or_assign(key, override.value == "true");
    else
      root[table_name].as_table()->insert_or_assign(key, override.value);
    labels[override.key] = override.label;
  }
  return read_config(root, "command line", std::move(base), std::move(labels));
}

std::vector<std::string> check_merged_settings(const settings& config) {
  std::vector<std::string> errors;
  if (config.runner.command.empty())
    errors.push_back("no runner command: runwarden run [flags] -- COMMAND [ARGS...]");
  const auto kind = config.runner.kind.value_or(
      guess_runner_kind(config.runner.command.empty() ? "" : config.runner.command.front()));
  if (!kind_of(kind).signals_configurable &&
      (config.runner.graceful_signal || config.runner.forceful_signal))
    errors.push_back("runner kind " + std::string{kind_of(kind).text} +
                     " has fixed signals; graceful/forceful signals apply to kind generic");
  return errors;
}

}  // namespace runwarden

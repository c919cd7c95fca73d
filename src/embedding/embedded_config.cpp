// See include/runwarden/config.hpp. The same steps as `runwarden run` (cli.cpp): the file's
// checks, the command put in, then the checks of the merged whole.
#include <utility>

#include "src/config/config_file.hpp"
#include "src/embedding/settings_value.hpp"

namespace runwarden::embedded {

namespace {

config_result merged(config_result read, std::vector<std::string> command) {
  if (!read.config) return read;
  if (!command.empty()) read.config->runner.command = std::move(command);
  if (auto errors = check_merged_settings(*read.config); !errors.empty())
    return {std::nullopt, std::move(errors), std::move(read.warnings)};
  return read;
}

}  // namespace

config::loaded config::from_file(const std::string& path, std::vector<std::string> command) {
  auto read = merged(load_config_file(path), std::move(command));
  if (!read.config) return {std::nullopt, std::move(read.errors), std::move(read.warnings)};
  return {config{std::make_unique<settings_value>(settings_value{std::move(*read.config)})},
          {},
          std::move(read.warnings)};
}

config::loaded config::from_toml(std::string_view text, std::vector<std::string> command,
                                 std::string_view source_name) {
  auto read = merged(parse_config_text(text, source_name), std::move(command));
  if (!read.config) return {std::nullopt, std::move(read.errors), std::move(read.warnings)};
  return {config{std::make_unique<settings_value>(settings_value{std::move(*read.config)})},
          {},
          std::move(read.warnings)};
}

void config::set_log_sink(log_sink sink) { value_->sink = std::move(sink); }

config::config(std::unique_ptr<settings_value> value) : value_(std::move(value)) {}
config::config(const config& other) : value_(std::make_unique<settings_value>(*other.value_)) {}
config& config::operator=(const config& other) {
  value_ = std::make_unique<settings_value>(*other.value_);
  return *this;
}
config::~config() = default;

}  // namespace runwarden::embedded

// See gitlab_runner_config_loader.hpp.
#include "src/runner/gitlab_runner_config_loader.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

namespace runwarden {
namespace {

constexpr std::size_t system_id_bytes_max = 256;

struct file_text {
  std::string text;
  std::string problem;  // empty when text holds the whole file
};

file_text read_bounded(const std::filesystem::path& path, std::size_t bytes_max) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    return {{}, error ? error.message() : "not a regular file"};
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return {{}, error.message()};
  if (size > bytes_max) return {{}, "larger than " + std::to_string(bytes_max) + " bytes"};
  std::ifstream file{path, std::ios::binary};
  if (!file) return {{}, "cannot be opened"};
  std::string text{std::istreambuf_iterator<char>{file}, std::istreambuf_iterator<char>{}};
  if (file.bad()) return {{}, "cannot be read"};
  return {std::move(text), {}};
}

}  // namespace

gitlab_runner_config_result load_gitlab_runner_config(const std::filesystem::path& config_path) {
  const file_text config_text = read_bounded(config_path, gitlab_runner_config_bytes_max);
  if (!config_text.problem.empty())
    return {std::nullopt, {config_path.string() + ": gitlab-runner config " + config_text.problem}};
  gitlab_runner_config_result result =
      parse_gitlab_runner_config(config_text.text, config_path.string());
  if (!result.config) return result;
  const std::filesystem::path id_path = config_path.parent_path() / ".runner_system_id";
  const file_text id_text = read_bounded(id_path, system_id_bytes_max);
  if (!id_text.problem.empty()) {
    result.config->system_id_problem = id_path.string() + ": " + id_text.problem;
  } else {
    result.config->system_id = parse_system_id(id_text.text);
    if (!result.config->system_id)
      result.config->system_id_problem = id_path.string() + ": not a gitlab-runner system id";
  }
  return result;
}

}  // namespace runwarden

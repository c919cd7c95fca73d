// See secret_file.hpp.
#include "src/util/secret_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace runwarden {

secret_file_result read_secret_file(const std::string& path, std::string_view purpose) {
  const std::string named = std::string{purpose} + " " + path;
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    return {std::nullopt, "the " + named + " is a directory"};
  std::ifstream file{path, std::ios::binary};
  if (!file) return {std::nullopt, "cannot read the " + named + ": " + std::strerror(errno)};
  std::string secret(secret_file_bytes_max + 1, '\0');
  file.read(secret.data(), static_cast<std::streamsize>(secret.size()));
  if (file.bad()) return {std::nullopt, "cannot read the " + named};
  secret.resize(static_cast<std::size_t>(file.gcount()));
  if (secret.size() > secret_file_bytes_max)
    return {std::nullopt, "the " + named + " is larger than " +
                              std::to_string(secret_file_bytes_max) + " bytes"};
  while (secret.ends_with('\n') || secret.ends_with('\r')) secret.pop_back();
  if (secret.empty()) return {std::nullopt, "the " + named + " is empty"};
  return {std::move(secret), {}};
}

}  // namespace runwarden

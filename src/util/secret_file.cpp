// See secret_file.hpp.
#include "src/util/secret_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

// Other local users may read the secret when the file's group or others may.
std::string exposure_warning(const std::string& path, const std::string& named) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return "";
  if ((status.st_mode & (S_IRGRP | S_IROTH)) == 0) return "";
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
  return "the " + named + " has mode " + mode +
         ": its group or others can read the secret (chmod go-rwx it)";
}

}  // namespace

secret_file_result read_secret_file(const std::string& path, std::string_view purpose,
                                    file_exposure exposure) {
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
    return {std::nullopt,
            "the " + named + " is larger than " + std::to_string(secret_file_bytes_max) + " bytes"};
  while (secret.ends_with('\n') || secret.ends_with('\r')) secret.pop_back();
  if (secret.empty()) return {std::nullopt, "the " + named + " is empty"};
  auto warning = exposure == file_exposure::warn ? exposure_warning(path, named) : "";
  if (!warning.empty()) warden_logger()->warn("{}", warning);
  return {std::move(secret), {}, std::move(warning)};
}

}  // namespace runwarden

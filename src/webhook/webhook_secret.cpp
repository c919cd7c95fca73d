// See webhook_secret.hpp. The file is read with a size cap so that pointing the setting at a
// device or a huge file fails cleanly instead of filling memory.
#include "src/webhook/webhook_secret.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace runwarden {

secret_read_result read_webhook_secret(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    return {std::nullopt, "the webhook secret file " + path + " is a directory"};
  std::ifstream file{path, std::ios::binary};
  if (!file) return {std::nullopt, "cannot read the webhook secret file " + path + ": " +
                                       std::strerror(errno)};
  std::string secret;
  char chunk[512];
  while (file.read(chunk, sizeof chunk) || file.gcount() > 0) {
    secret.append(chunk, static_cast<std::size_t>(file.gcount()));
    if (secret.size() > webhook_secret_bytes_max)
      return {std::nullopt, "the webhook secret file " + path + " is larger than " +
                                std::to_string(webhook_secret_bytes_max) + " bytes"};
  }
  if (file.bad()) return {std::nullopt, "cannot read the webhook secret file " + path};
  if (secret.ends_with('\n')) secret.pop_back();
  if (secret.ends_with('\r')) secret.pop_back();
  if (secret.empty()) return {std::nullopt, "the webhook secret file " + path + " is empty"};
  return {std::move(secret), {}};
}

}  // namespace runwarden

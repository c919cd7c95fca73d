#pragma once
// The webhook's signing secret, read once from a file at start (never from the command line,
// where `ps` would show it). One trailing line break is dropped, since `echo secret > file`
// writes one; everything else is the key, byte for byte. Errors name the path, never the
// content.

#include <cstddef>
#include <optional>
#include <string>

namespace runwarden {

struct secret_read_result {
  std::optional<std::string> secret;  // set exactly when error is empty
  std::string error;
};

secret_read_result read_webhook_secret(const std::string& path);

}  // namespace runwarden

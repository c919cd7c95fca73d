#pragma once
// Secrets (the control API's bearer token, the webhook's signing key) are read from files,
// never taken from the command line, where `ps` would show them. One reader for all: a size
// cap, so a setting pointed at a device or a big file fails cleanly; trailing line breaks
// dropped, since `echo secret > file` writes one; an empty file refused. Errors name the
// file and what it was for, never its content.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::size_t secret_file_bytes_max = 4096;

struct secret_file_result {
  std::optional<std::string> secret;  // set exactly when error is empty
  std::string error;
};

// `purpose` names the file in errors: "token file", "webhook secret file".
secret_file_result read_secret_file(const std::string& path, std::string_view purpose);

}  // namespace runwarden

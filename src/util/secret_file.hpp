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
  std::string warning = {};  // the file's group or others may read it; logged as well
};

// `purpose` names the file in errors: "token file", "webhook secret file". A file that its
// group or others may read is still used (refusing would stop a running fleet at its next
// restart), with a warning naming the file and its mode.
// `not_secret`: a file read with the same rules that holds no secret (gitlab-runner's
// .runner_system_id is 0644 by design), so its mode is no concern.
enum class file_exposure : bool { warn, not_secret };

secret_file_result read_secret_file(const std::string& path, std::string_view purpose,
                                    file_exposure exposure = file_exposure::warn);

}  // namespace runwarden

// See state_directory.hpp.
#include "src/journal/state_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/journal/journal_location.hpp"

namespace runwarden {

namespace {

std::string failure(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

// mkdir -p, each new level 0700: the journal holds callback URLs and headers.
std::optional<std::string> make_directories(const std::filesystem::path& directory) {
  std::filesystem::path path;
  for (const auto& part : directory) {
    path /= part;
    if (::mkdir(path.c_str(), S_IRWXU) != 0 && errno != EEXIST)
      return failure("cannot create state directory", path);
  }
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0)
    return failure("cannot use state directory", directory);
  if (!S_ISDIR(status.st_mode)) {
    errno = ENOTDIR;
    return failure("cannot use state directory", directory);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> state_directory_problem(const std::filesystem::path& directory,
                                                   uid_t owner) {
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0)
    return failure("cannot use state directory", directory);
  const std::string refusing = "refusing the state directory " + directory.string() + ": ";
  if (status.st_uid != owner)
    return refusing + "it belongs to uid " + std::to_string(status.st_uid) +
           ", not to runwarden's uid " + std::to_string(owner) +
           ", who could plant a forged journal or links in it (chown it)";
  if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
    return refusing + "its mode " + mode +
           " lets group or others write in it, so they could plant a forged journal or "
           "links in it (chmod go-w it)";
  }
  return std::nullopt;
}

std::optional<std::string> prepare_state_directory(const std::filesystem::path& directory) {
  if (auto error = make_directories(directory)) return error;
  if (auto problem = state_directory_problem(directory, ::geteuid())) return problem;
  // Permission bits do not tell the whole truth (read-only mounts, ACLs, root): try it.
  const auto probe = directory / ".runwarden-write-probe";
  const int descriptor = ::open(
      probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, S_IRUSR | S_IWUSR);
  if (descriptor < 0 && errno == ELOOP)
    return "refusing the state directory " + directory.string() + ": " + probe.string() +
           " is a symbolic link";
  if (descriptor < 0) return failure("state directory is not writable:", directory);
  ::close(descriptor);
  ::unlink(probe.c_str());
  return std::nullopt;
}

std::optional<std::string> retire_journal(const std::filesystem::path& directory) {
  const auto live = journal_file(directory);
  if (::rename(live.c_str(), previous_journal_file(directory).c_str()) != 0) {
    if (errno == ENOENT) return std::nullopt;
    return failure("cannot retire journal", live);
  }
  return sync_directory(directory);
}

std::optional<std::string> sync_directory(const std::filesystem::path& directory) {
  const int descriptor = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (descriptor < 0) return failure("cannot open directory", directory);
  const bool synced = ::fsync(descriptor) == 0;
  ::close(descriptor);
  if (!synced) return failure("cannot sync directory", directory);
  return std::nullopt;
}

}  // namespace runwarden

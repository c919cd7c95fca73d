// See unix_socket_file.hpp.
#include "src/control/unix_socket_file.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace runwarden {

namespace {

std::string error_text(int error_number) { return std::strerror(error_number); }

std::string parent_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

// Creates dir and its missing parents with socket_directory_mode (umask or not).
std::string create_directories(const std::string& dir) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) == 0) {
    return S_ISDIR(info.st_mode) ? "" : dir + " exists and is not a directory";
  }
  if (errno != ENOENT) return "cannot check " + dir + ": " + error_text(errno);
  if (auto problem = create_directories(parent_of(dir)); !problem.empty()) return problem;
  if (::mkdir(dir.c_str(), socket_directory_mode) != 0 && errno != EEXIST)
    return "cannot create " + dir + ": " + error_text(errno);
  if (::chmod(dir.c_str(), socket_directory_mode) != 0)
    return "cannot set the mode of " + dir + ": " + error_text(errno);
  return "";
}

// Whoever may write to the directory may replace the socket in it, unless the sticky bit
// (as on /tmp) keeps them to their own files.
std::string check_directory_owner(const std::string& dir) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) return "cannot check " + dir + ": " + error_text(errno);
  if (info.st_uid != ::geteuid() && info.st_uid != 0)
    return "refusing to put the control socket in " + dir +
           ": it belongs to another user, who could replace the socket";
  const bool strangers_write = (info.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  if (strangers_write && (info.st_mode & S_ISVTX) == 0)
    return "refusing to put the control socket in " + dir +
           ": its group or others may write to it and could replace the socket "
           "(chmod go-w it, or choose another directory)";
  return "";
}

std::string remove_if_stale(const std::string& path, bool& removed) {
  const int probe = probe_unix_socket(path);
  if (probe == 0)
    return "a server already answers on unix://" + path +
           " (another runwarden?); stop it or choose another --grpc-listen";
  if (probe != ECONNREFUSED)
    return "cannot check the existing socket unix://" + path + ": " + error_text(probe);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    return "cannot remove the stale socket " + path + ": " + error_text(errno);
  removed = true;
  return "";
}

}  // namespace

std::string client_socket_directory_problem(const std::string& dir, uid_t caller) {
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0) {
    if (errno == ENOENT) return "";  // nobody listens there; connecting says so
    return "cannot check the control socket's directory " + dir + ": " + error_text(errno);
  }
  const std::string refusing = "refusing to send the token to a socket in " + dir + ": ";
  if (!S_ISDIR(info.st_mode)) return refusing + "it is not a directory (a symbolic link?)";
  if (info.st_uid != caller && info.st_uid != 0)
    return refusing + "it belongs to uid " + std::to_string(info.st_uid) + ", not to you (uid " +
           std::to_string(caller) + ") or root, so that user could be listening there";
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    return refusing + "its mode " + mode +
           " lets group or others write in it, so they could replace the socket";
  }
  return "";
}

int probe_unix_socket(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) return ENAMETOOLONG;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  const int result = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  const int error = result == 0 ? 0 : errno;
  ::close(fd);
  // A full backlog (EAGAIN) still means a server listens there.
  return error == EAGAIN || error == EINPROGRESS ? 0 : error;
}

socket_path_result prepare_socket_path(const std::string& path) {
  const std::string dir = parent_of(path);
  socket_path_result result;
  result.error = create_directories(dir);
  if (result.error.empty()) result.error = check_directory_owner(dir);
  if (!result.error.empty()) return result;
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    if (errno != ENOENT) result.error = "cannot check " + path + ": " + error_text(errno);
    return result;
  }
  if (!S_ISSOCK(info.st_mode)) {
    result.error = path + " exists and is not a socket; refusing to replace it";
    return result;
  }
  result.error = remove_if_stale(path, result.removed_stale);
  return result;
}

socket_file_result restrict_socket_file(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0 || !S_ISSOCK(info.st_mode))
    return {std::nullopt, "the control socket " + path + " vanished after bind"};
  if (::chmod(path.c_str(), socket_file_mode) != 0)
    return {std::nullopt, "cannot set the mode of " + path + ": " + error_text(errno)};
  return {socket_file_identity{info.st_dev, info.st_ino}, {}};
}

void remove_socket_file(const std::string& path, const socket_file_identity& identity) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return;
  if (info.st_dev != identity.device || info.st_ino != identity.inode) return;
  ::unlink(path.c_str());
}

}  // namespace runwarden

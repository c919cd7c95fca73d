#pragma once
// The control socket's file on disk. A unix socket is guarded by file permissions, so the
// socket is made 0660 inside a directory only its owner (and group) can enter, and a
// directory that strangers could write to is refused, since they could swap the socket.
// A socket file left by a crashed runwarden would make bind() fail; it is removed only once
// connect() has shown that nobody answers on it, so a live runwarden is never unplugged.

#include <sys/types.h>

#include <optional>
#include <string>

namespace runwarden {

// Directories runwarden creates for its socket get this mode; the socket gets the next one.
inline constexpr mode_t socket_directory_mode = 0750;
inline constexpr mode_t socket_file_mode = 0660;

// The errno of connect() to the unix socket at path; 0 when something accepted (or queued)
// the connection. Never blocks.
int probe_unix_socket(const std::string& path);

// Before a client sends its bearer token to a socket in `dir` (the default
// /tmp/runwarden-UID, which anyone may create first): the directory must be a real
// directory, belong to `caller` or root, and let neither group nor others write in it, or
// whoever controls it could listen there. Empty when it may be trusted; else the problem,
// naming the directory, its owner or mode.
std::string client_socket_directory_problem(const std::string& dir, uid_t caller);

struct socket_path_result {
  std::string error;  // empty when the path is ready to bind
  bool removed_stale = false;
};

// Makes path ready for a server to bind: creates missing directories, checks the directory
// is not writable by strangers, removes a stale socket nobody answers on.
socket_path_result prepare_socket_path(const std::string& path);

// Which file the server bound, so that the exit removes that one and no other.
struct socket_file_identity {
  dev_t device = 0;
  ino_t inode = 0;
};

struct socket_file_result {
  std::optional<socket_file_identity> identity;  // set exactly when error is empty
  std::string error;
};

// After bind: sets socket_file_mode and records the file's identity.
socket_file_result restrict_socket_file(const std::string& path);

// Removes the socket file if it is still the one identity names.
void remove_socket_file(const std::string& path, const socket_file_identity& identity);

}  // namespace runwarden

#pragma once
// Where the keeper runs: in a program of its own, runwarden-keeper, so that the
// runner's parent maps a few hundred kilobytes and runs its own code only, not the whole of
// runwarden with CAF, gRPC and libcurl linked in and their static initialisers run at every
// start. `runwarden run` and `runwarden wrapper` exec it, looked up beside their own binary
// (the same directory, as in a build tree, or ../libexec/runwarden/, as the Debian package
// and the tarball install it), with their own command line: the PID (systemd's MainPID), the
// command line `ps` shows and the environment stay, so the unit's ExecStart and every
// container entrypoint are unchanged. The keeper learns the warden's binary from one variable,
// which it removes. Where no keeper program lies beside (runwarden copied on its own),
// runwarden itself is the keeper, as it always was: the same code, a larger process.

#include <string>

namespace runwarden {

// Names the warden's binary (absolute) for runwarden-keeper; set only for that exec.
inline constexpr const char* warden_binary_variable = "RUNWARDEN_WARDEN_BINARY";
inline constexpr const char* keeper_program_name = "runwarden-keeper";

// This process's binary as an absolute path, found without /proc too (an empty root, a
// bare container): the path the kernel says it was started by. Empty when unknown.
std::string own_binary_path();

// Both below are for the executable's .preinit_array, where a dynamic executable runs before
// libc's own initialiser has set `environ` (glibc's _dl_init runs the executable's preinit
// first): getenv and setenv cannot be trusted there, so the environment is read from, and
// passed on as, `envp`.

// True when `runwarden ARGS` is to become the keeper: the command is `run` or `wrapper`,
// and no keeper started it (no link descriptor in `envp`).
bool wants_keeper_program(int argc, char** argv, char** envp);

// Execs runwarden-keeper found beside `warden_binary` with `argv` and `envp`, naming
// `warden_binary` to it. Returns only when there is none, or its exec failed.
void exec_keeper_program(const std::string& warden_binary, char** argv, char** envp);

}  // namespace runwarden

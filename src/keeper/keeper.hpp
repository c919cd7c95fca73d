#pragma once
// The keeper: the small process that `runwarden run` and
// `runwarden wrapper` become, so that the runner's life never hangs on the big one. It is the
// runner's parent and the service's main process (systemd's MainPID, PID 1 in a container):
//
// - it starts the warden (runwarden's binary, with the link's descriptor in its environment),
//   and starts it again, with backoff, whenever it dies by a signal, is killed by the keeper's
//   own watchdog (no WATCHDOG=1 from the warden within its interval), or exits while the
//   runner still runs; a warden that exits with the runner gone ends the keeper with the
//   warden's exit code;
// - it spawns the runner through the start gate when the warden asks, releases the gate
//   when the warden says the journal holds the pid, and closes it when that warden dies
//   first;
// - it holds the runner's stdout and stderr and relays them line by line to the warden, which
//   logs them; it never blocks on that: a line nobody can take now is dropped and counted;
// - it reaps the runner and every orphan (it is a child subreaper, or PID 1), so the runner's
//   exit status is always known, and tells it to the warden of the moment;
// - it signals the runner's process group when the warden asks, and no other process;
// - it hands SIGTERM, SIGINT, SIGQUIT and SIGHUP to the warden, each kept until a warden
//   says it has it; SIGUSR2 re-executes runwarden's binary, which becomes the keeper again
//   (an upgrade: the runner, its pipes and its exit status carry over, the PID stays);
// - it relays the warden's sd_notify lines to systemd and pings systemd's watchdog from its
//   own loop.
//
// It ignores SIGPIPE, includes no CAF, gRPC or libcurl, and runs one poll loop on one thread.
// It is a program of its own, runwarden-keeper, where one is installed beside runwarden
// (keeper_program.hpp), and runwarden itself otherwise.

#include <string>

namespace runwarden {

// True when this process, started as `runwarden ARGS`, should become the keeper: the
// command is `run` or `wrapper`, and no keeper started it.
bool wants_keeper(int argc, char** argv);

// Runs the keeper until the warden ends with the runner gone; returns the exit code. Each
// warden runs `warden_binary` (absolute) with this argv.
int run_keeper(int argc, char** argv, std::string warden_binary);

}  // namespace runwarden

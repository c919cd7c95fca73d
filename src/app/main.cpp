// runwarden's executable: the command line, and nothing else. Everything lives in the
// library so that a host program and the simulation can use the same code. `runwarden run`
// and `runwarden wrapper` start as the keeper (src/keeper/keeper.hpp): they exec the
// runwarden-keeper program installed beside this binary, or are the keeper themselves where
// none is (src/keeper/keeper_program.hpp); the keeper runs this binary again as the warden.
#include <spdlog/spdlog.h>

#include "src/app/cli.hpp"
#include "src/app/openssl_exit.hpp"
#include "src/keeper/keeper.hpp"
#include "src/keeper/keeper_program.hpp"
#include "src/util/process_hygiene.hpp"

namespace {

// Before any shared library's constructor: glibc runs the executable's .preinit_array first
// (elf/dl-init.c, _dl_init), and a library that opens a descriptor at load time (an eventfd)
// would otherwise take a closed 0, 1 or 2, and receive runwarden's log lines.
// The keeper program is executed from here too, before any static initialiser (protobuf's
// descriptors, abseil's and gRPC's globals, CAF's): the keeper would use none of them, and in
// the static binary they are most of what a start costs in time and pages.
void before_everything(int argc, char** argv, char** envp) {
  runwarden::take_standard_descriptors_and_ignore_sigpipe();
  if (runwarden::wants_keeper_program(argc, argv, envp))
    runwarden::exec_keeper_program(runwarden::own_binary_path(), argv, envp);
}
[[gnu::section(".preinit_array"), gnu::used]] void (*const preinit)(int, char**,
                                                                    char**) = &before_everything;

}  // namespace

int main(int argc, char** argv) {
  // No keeper program beside this binary (the preinit above would have executed it): this
  // process is the keeper itself.
  if (runwarden::wants_keeper(argc, argv))
    return runwarden::run_keeper(argc, argv, runwarden::own_binary_path());
  runwarden::leave_openssl_cleanup_to_process_exit();
  const int exit_code = runwarden::run_cli(argc, argv);
  spdlog::shutdown();  // the log's queue is written out before the exit
  return exit_code;
}

// runwarden's executable: the command line, and nothing else. Everything lives in the
// library so that a host program and the simulation can use the same code. `runwarden run`
// and `runwarden wrapper` start as the keeper (src/keeper/keeper.hpp), which runs this same
// binary again as the warden.
#include <spdlog/spdlog.h>

#include "src/app/cli.hpp"
#include "src/app/openssl_exit.hpp"
#include "src/app/process_hygiene.hpp"
#include "src/keeper/keeper.hpp"

namespace {

// Before any shared library's constructor: glibc runs the executable's .preinit_array first
// (elf/dl-init.c, _dl_init), and a library that opens a descriptor at load time (an eventfd)
// would otherwise take a closed 0, 1 or 2, and receive runwarden's log lines.
void take_descriptors_before_everything(int, char**, char**) {
  runwarden::take_standard_descriptors_and_ignore_sigpipe();
}
[[gnu::section(".preinit_array"),
  gnu::used]] void (*const preinit)(int, char**, char**) = &take_descriptors_before_everything;

}  // namespace

int main(int argc, char** argv) {
  if (runwarden::wants_keeper(argc, argv)) return runwarden::run_keeper(argc, argv);
  runwarden::leave_openssl_cleanup_to_process_exit();
  const int exit_code = runwarden::run_cli(argc, argv);
  spdlog::shutdown();  // the log's queue is written out before the exit
  return exit_code;
}

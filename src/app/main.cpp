// runwarden's executable: the command line, and nothing else. Everything lives in the
// library so that a host program and the simulation can use the same code. `runwarden run`
// and `runwarden wrapper` start as the keeper (src/keeper/keeper.hpp), which runs this same
// binary again as the warden.
#include <spdlog/spdlog.h>

#include "src/app/cli.hpp"
#include "src/app/openssl_exit.hpp"
#include "src/app/process_hygiene.hpp"
#include "src/keeper/keeper.hpp"

int main(int argc, char** argv) {
  runwarden::take_standard_descriptors_and_ignore_sigpipe();
  if (runwarden::wants_keeper(argc, argv)) return runwarden::run_keeper(argc, argv);
  runwarden::leave_openssl_cleanup_to_process_exit();
  const int exit_code = runwarden::run_cli(argc, argv);
  spdlog::shutdown();  // the log's queue is written out before the exit
  return exit_code;
}

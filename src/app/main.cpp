// runwarden's executable: the command line, and nothing else. Everything lives in the
// library so that a host program and the simulation can use the same code.
#include "src/app/cli.hpp"
#include "src/app/openssl_exit.hpp"

int main(int argc, char** argv) {
  runwarden::leave_openssl_cleanup_to_process_exit();
  return runwarden::run_cli(argc, argv);
}

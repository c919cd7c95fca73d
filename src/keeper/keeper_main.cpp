// runwarden-keeper: the keeper as a program of its own (keeper_program.hpp), built from
// src/keeper/ and the few low-layer files it uses, with no CAF, gRPC, libcurl, spdlog or
// protobuf linked in. `runwarden run` and `runwarden wrapper` exec it with their command
// line; it starts that same command as the warden, from the binary they name.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "messages/keeper_protocol.hpp"
#include "src/keeper/keeper.hpp"
#include "src/keeper/keeper_program.hpp"
#include "src/util/exit_codes.hpp"
#include "src/util/process_hygiene.hpp"

namespace {

// As in runwarden's main (src/app/main.cpp): descriptors 0-2 and SIGPIPE first of all.
void take_descriptors_before_everything(int, char**, char**) {
  runwarden::take_standard_descriptors_and_ignore_sigpipe();
}
[[gnu::section(".preinit_array"),
  gnu::used]] void (*const preinit)(int, char**, char**) = &take_descriptors_before_everything;

}  // namespace

int main(int argc, char** argv) {
  // A warden is never a keeper: a keeper started by a keeper would start another in turn.
  if (std::getenv(runwarden::keeper_protocol::link_variable) != nullptr) {
    std::fputs("runwarden-keeper: started by a keeper, as its warden; refusing\n", stderr);
    return runwarden::exit_software;
  }
  const char* warden = std::getenv(runwarden::warden_binary_variable);
  if (warden == nullptr || warden[0] != '/') {
    std::fputs(
        "runwarden-keeper: not a command of its own; `runwarden run` and `runwarden "
        "wrapper` start it\n",
        stderr);
    return runwarden::exit_usage;
  }
  std::string warden_binary = warden;
  ::unsetenv(runwarden::warden_binary_variable);  // neither the warden nor the runner sees it
  return runwarden::run_keeper(argc, argv, std::move(warden_binary));
}

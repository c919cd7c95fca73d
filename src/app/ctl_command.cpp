// See ctl_command.hpp. A placeholder until the gRPC client lands: it says so and fails.
#include "src/app/ctl_command.hpp"

#include <iostream>

namespace runwarden {

ctl_command add_ctl_command(CLI::App& app) {
  auto* ctl = app.add_subcommand("ctl", "talk to a running runwarden (status, shutdown)");
  ctl->allow_extras();
  return {[ctl] { return ctl->parsed(); },
          [] {
            std::cerr << "runwarden: ctl is not available in this build\n";
            return 69;  // EX_UNAVAILABLE
          }};
}

}  // namespace runwarden

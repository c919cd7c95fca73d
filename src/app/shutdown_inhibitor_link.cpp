// See shutdown_inhibitor_link.hpp.
#include "src/app/shutdown_inhibitor_link.hpp"

#include <memory>

#include "actors/shutdown_inhibitor/shutdown_inhibitor_actor.hpp"
#include "src/logging/logging.hpp"
#include "src/ports/os/logind_inhibitor.hpp"

namespace runwarden {

std::optional<shutdown_inhibitor_link> shutdown_inhibitor_link::start(
    caf::actor_system& system, const status_source_actor& warden, bool enabled) {
  if (!enabled) return std::nullopt;
  if (!logind_inhibitor::supported()) {
    warden_logger()->info(
        "logind: this static build has no sd-bus and holds no shutdown inhibitor lock "
        "(run.inhibit_shutdown); a shutdown of this machine will not wait for jobs");
    return std::nullopt;
  }
  // Shared by the two port functions; freed, and so released, with the actor's state.
  auto lock = std::make_shared<logind_inhibitor>();
  auto actor = system.spawn<caf::detached>(
      shutdown_inhibitor_behavior,
      shutdown_inhibitor_wiring{
          .warden = warden,
          .take = [lock] { return lock->take("CI jobs are running; the runner drains first"); },
          .release = [lock] { lock->release(); }});
  return shutdown_inhibitor_link{actor};
}

void shutdown_inhibitor_link::stop() {
  caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown);
}

}  // namespace runwarden

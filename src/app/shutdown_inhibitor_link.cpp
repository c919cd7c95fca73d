// See shutdown_inhibitor_link.hpp.
#include "src/app/shutdown_inhibitor_link.hpp"

#include <memory>

#include "actors/shutdown_inhibitor/shutdown_inhibitor_actor.hpp"
#include "src/logging/logging.hpp"
#include "src/ports/os/logind_inhibitor.hpp"

namespace runwarden {

namespace {

// A shutdown logind announces drains at once: systemd sends its SIGTERM only once the delay
// locks are gone. Not as a SIGTERM: systemd's own SIGTERM, when InhibitDelayMaxSec runs out
// with jobs left, would then count as a second one and force the runner; as a request (its own
// trigger, os_shutdown, the reason naming logind) it joins the drain and the jobs go on. A
// cancelled shutdown cannot undo a drain and is only logged.
std::shared_ptr<logind_shutdown_watch> watch_shutdowns(const warden_actor& warden) {
  auto watch = std::make_shared<logind_shutdown_watch>();
  const auto failure = watch->start([warden](bool shutting_down) {
    if (!shutting_down) {
      warden_logger()->info("logind: the shutdown was cancelled; a drain under way goes on");
      return;
    }
    caf::anon_send(
        warden,
        shutdown_requested{.source = trigger_source::os_shutdown,
                           .reason = "the system is shutting down (logind PrepareForShutdown)"});
  });
  // Without a bus the lock's first take says so, once.
  if (failure) warden_logger()->debug("logind: not watching for shutdowns: {}", *failure);
  return watch;
}

}  // namespace

std::optional<shutdown_inhibitor_link> shutdown_inhibitor_link::start(caf::actor_system& system,
                                                                      const warden_actor& warden,
                                                                      bool enabled) {
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
  return shutdown_inhibitor_link{actor, watch_shutdowns(warden)};
}

void shutdown_inhibitor_link::stop() {
  watch_->stop();
  caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown);
}

}  // namespace runwarden

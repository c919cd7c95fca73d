#pragma once
// The systemd side of `runwarden run`: when systemd started runwarden as a Type=notify
// service (NOTIFY_SOCKET set), the service manager actor follows the warden and tells
// systemd, through the keeper or sd_notify; outside systemd nothing is spawned, so nothing is sent
// and nothing costs.

#include <optional>
#include <string>

#include "caf/all.hpp"
#include "messages/service_manager_messages.hpp"
#include "src/ports/os/systemd_notify.hpp"

namespace runwarden {

class service_manager_link {
 public:
  // nullopt without `notify` (outside systemd and a keeper). `unregister_url`: the CI
  // server a drain unregisters from, if any, named in the status. `listening`: the control API is
  // up (or none was asked for), so READY=1 goes as soon as the runner has started.
  static std::optional<service_manager_link> start(caf::actor_system& system,
                                                   const warden_actor& warden,
                                                   std::optional<systemd_notify> notify,
                                                   const std::string& unregister_url,
                                                   bool listening);
  void stop();

 private:
  explicit service_manager_link(service_manager_actor actor) : actor_(std::move(actor)) {}
  service_manager_actor actor_;
};

}  // namespace runwarden

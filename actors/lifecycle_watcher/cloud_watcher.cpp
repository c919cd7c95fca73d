// See cloud_watcher.hpp.
#include "actors/lifecycle_watcher/cloud_watcher.hpp"

namespace runwarden {

cloud_watcher::cloud_watcher(supervisor_actor supervisor, std::vector<http_port_actor> ports,
                             std::vector<std::shared_ptr<http_worker>> workers)
    : supervisor_(std::move(supervisor)), ports_(std::move(ports)), workers_(std::move(workers)) {}

void cloud_watcher::stop() {
  if (supervisor_) caf::anon_send_exit(supervisor_, caf::exit_reason::user_shutdown);
  for (const auto& port : ports_)
    if (port) caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
  for (const auto& worker : workers_) worker->stop();
}

}  // namespace runwarden

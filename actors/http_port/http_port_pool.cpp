// See http_port_pool.hpp.
#include "actors/http_port/http_port_pool.hpp"

#include "actors/exit_wait/exit_wait.hpp"
#include "actors/http_port/http_port_actor.hpp"

namespace runwarden {

http_port_actor http_port_pool::add() {
  workers_.push_back(std::make_shared<http_worker>());
  plain_clients_.push_back(std::make_shared<plain_http_client>(io_));
  ports_.push_back(system_.spawn(http_port, workers_.back(), plain_clients_.back()));
  return ports_.back();
}

void http_port_pool::stop() {
  if (!ports_.empty()) {
    // The ports hold the clients, whose timers live on the io context: the clients go only
    // once no port can touch them.
    exit_wait ended{system_};
    for (const auto& port : ports_) {
      ended.watch(port);
      caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
    }
    ended.wait();
  }
  for (const auto& client : plain_clients_) client->stop();
  for (const auto& worker : workers_) worker->stop();
  ports_.clear();
  plain_clients_.clear();
  workers_.clear();
}

}  // namespace runwarden

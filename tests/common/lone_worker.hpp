#pragma once
// One worker of an instance's tree started alone, for tests that run it against a real
// server: started the way the assembly starts every worker (src/assembly/instance.cpp), its
// row declared from a plan by the tree (declare_workers) and run under a supervisor of its
// own (spawn_worker_supervisor), so the test runs production's row, factory and spawner.
// Its HTTP ports are libcurl ports of its own, each with a worker thread of its own (started
// with its first request), and a test's actor stands in for the warden. It owns those
// threads, which is why stopping goes through it.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "actors/http_port/http_port_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "caf/all.hpp"
#include "src/assembly/instance_tree.hpp"
#include "src/ports/http/http_worker.hpp"

namespace runwarden::testing {

class lone_worker {
 public:
  // Starts the worker `id` (messages/child_ids.hpp) of `plan`; `warden` receives what the
  // worker tells the warden. The other rows the plan asks for (the notifier, always) are
  // declared, as the assembly declares them, and dropped: only `id` runs.
  lone_worker(caf::actor_system& system, const instance_plan& plan, std::string_view id,
              const caf::actor& warden) {
    instance_ports ports;
    ports.http = [this, &system] {
      workers_.push_back(std::make_shared<http_worker>());
      ports_.push_back(system.spawn(http_port, workers_.back(), nullptr));
      return ports_.back();
    };
    const worker_peers peers{caf::actor_cast<warden_actor>(warden), {}, {}};
    for (auto& worker : declare_workers(plan, ports, peers))
      if (worker.child.spec.id == id)
        supervisor_ = spawn_worker_supervisor(system, std::move(worker.child));
  }
  lone_worker(const lone_worker&) = delete;
  lone_worker& operator=(const lone_worker&) = delete;
  ~lone_worker() { stop(); }

  // Invalid when the plan has no worker `id`. Sends a child_incarnation of the worker at
  // every (re)start to listeners: (caf::subscribe_atom, listener).
  const supervisor_actor& supervisor() const { return supervisor_; }

  // Ends the supervisor (and so the worker) and the ports, and joins the worker threads,
  // which takes at most one request timeout each. Safe to call twice.
  void stop() {
    if (supervisor_) caf::anon_send_exit(supervisor_, caf::exit_reason::user_shutdown);
    for (const auto& port : ports_) caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
    for (const auto& worker : workers_) worker->stop();
    supervisor_ = supervisor_actor{};
    ports_.clear();
    workers_.clear();
  }

 private:
  supervisor_actor supervisor_;
  std::vector<http_port_actor> ports_;
  std::vector<std::shared_ptr<http_worker>> workers_;
};

}  // namespace runwarden::testing

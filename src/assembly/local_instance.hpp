#pragma once
// One runwarden instance on this machine, as `runwarden run` and an embedding host both run
// it: planned from the settings (instance_planning), its journal opened in the state
// directory (locked, so a second instance on the same directory, in this process or
// another, is refused), then started in a given actor system on the production ports: the
// runner as a child process on an io thread of its own, and HTTP ports that carry plain HTTP
// on that io thread and the rest on libcurl.
//
// What stays with the caller: the actor system, the control API, runwarden's own signals,
// and waiting for gone.

#include <memory>
#include <optional>
#include <string>
#include <variant>

#include <boost/asio/io_context.hpp>

#include "actors/http_port/http_port_pool.hpp"
#include "actors/warden/warden_actor.hpp"
#include "caf/all.hpp"
#include "src/assembly/instance.hpp"
#include "src/assembly/run_journal.hpp"
#include "src/config/settings.hpp"
#include "src/ports/os/child_process_host.hpp"
#include "src/ports/os/io_thread.hpp"
#include "src/ports/os/keeper_link.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

// Where the runner lives: under the keeper (`runwarden run`, `runwarden wrapper`), or as a
// child of this process, reaped as child_reaping says (an embedding host).
using runner_hosting = std::variant<child_reaping, std::shared_ptr<keeper_link>>;

class local_instance {
 public:
  struct prepare_result {
    std::unique_ptr<local_instance> instance;  // null exactly when error is set
    std::string error;
    int exit_code = 0;  // with an error: exit_config, or what the state directory gave
  };

  // Every check that can fail runs here, before anything starts. `metrics` counts the
  // workers' outcomes and shows the warden's snapshots and the journal's health.
  static prepare_result prepare(const settings& config, std::shared_ptr<metrics_registry> metrics);

  local_instance(const local_instance&) = delete;
  local_instance& operator=(const local_instance&) = delete;
  ~local_instance() { stop(); }

  // Starts the runner, then the instance's actors in `system`. `exit_listener` receives
  // warden_exited at gone (warden_wiring). Every effect is logged, then handed to
  // `observer` (metrics). `hosting`: where the runner lives; every_child only where
  // runwarden owns the process (child_process_host.hpp). Once only.
  void start(caf::actor_system& system, warden_exit_listener_actor exit_listener,
             effect_observer observer, runner_hosting hosting);

  // Valid once started.
  const instance& actors() const { return *actors_; }
  run_journal& journal() { return *journal_; }
  boost::asio::io_context& io_context() { return io_.context(); }
  // The CI server a drain unregisters from (the first, if several); empty if none.
  const std::string& unregister_url() const { return unregister_url_; }

  // Stops the actors in the declared order and waits until they are gone, then the HTTP
  // ports, the child process host and the io thread. Leaves the runner process alone: a
  // drain ends it. Blocks: call it from a thread that is not a CAF worker, while the actor
  // system runs. Safe to call twice.
  void stop();

 private:
  local_instance(settings config, instance_plan plan, run_journal journal,
                 std::string unregister_url, std::shared_ptr<metrics_registry> metrics);

  settings config_;
  caf::actor_system* system_ = nullptr;  // from start() until stop()
  std::optional<instance_plan> plan_;    // until started
  std::optional<run_journal> journal_;
  std::string unregister_url_;
  std::shared_ptr<metrics_registry> metrics_;
  io_thread io_;
  std::shared_ptr<runner_host> host_;
  std::optional<http_port_pool> http_ports_;
  process_port_actor process_port_;
  std::optional<instance> actors_;
};

}  // namespace runwarden

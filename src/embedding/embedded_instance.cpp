// See include/runwarden/instance.hpp. The instance is runwarden run's local_instance in the
// host's actor system, with a host relay as the warden's exit listener; no control API, no
// signal watch, no service manager: the host has the handle.
#include "runwarden/instance.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

#include "messages/warden_messages.hpp"
#include "runwarden_version.hpp"
#include "src/assembly/local_instance.hpp"
#include "src/drain/shutdown_request_limits.hpp"
#include "src/embedding/embedded_log.hpp"
#include "src/embedding/host_relay.hpp"
#include "src/embedding/public_status.hpp"
#include "src/embedding/settings_value.hpp"
#include "src/logging/logging.hpp"
#include "src/util/time_bounds.hpp"

namespace runwarden::embedded {

struct instance::running {
  // First in, last out: the lines of the whole stop() reach the host's sink.
  std::unique_ptr<embedded_log_route> log;
  caf::actor_system& system;
  std::unique_ptr<local_instance> local;
  host_relay_actor relay;
  std::shared_ptr<std::atomic<bool>> gone;  // the relay's word that the status is gone
};

instance::started instance::start(caf::actor_system& system, const config& settings) {
  const auto& checked = settings.value_->checked;
  auto log = embedded_log_route::install(checked.log, settings.value_->sink);
  auto metrics = std::make_shared<metrics_registry>(version_text, std::chrono::system_clock::now());
  auto prepared = local_instance::prepare(checked, metrics);
  if (!prepared.instance) return {std::nullopt, std::move(prepared.error)};
  // The relay exists before the warden, whose exit listener it is. It may use the journal:
  // stop() waits for the relay's end before the journal goes.
  auto& journal = prepared.instance->journal();
  auto gone = std::make_shared<std::atomic<bool>>(false);
  auto state =
      std::make_unique<running>(running{std::move(log), system, std::move(prepared.instance),
                                        system.spawn(
                                            host_relay, [&journal] { journal.retire(); }, gone),
                                        gone});
  state->local->start(
      system, state->relay,
      [metrics](const drain_effect& effect, const warden_snapshot& snapshot) {
        metrics->observe(effect, snapshot);
      },
      child_reaping::runner_only);  // the host's children are the host's
  caf::anon_send(state->local->actors().warden(), subscribe_atom::value,
                 status_subscriber_actor{state->relay});
  return {instance{std::move(state)}, {}};
}

instance::instance(std::unique_ptr<running> state) : running_(std::move(state)) {}
instance::instance(instance&&) noexcept = default;
instance& instance::operator=(instance&& other) noexcept {
  if (this != &other) {
    stop();  // the replaced instance's relay and threads end as its destructor would end them
    running_ = std::move(other.running_);
  }
  return *this;
}
instance::~instance() { stop(); }

std::optional<status> instance::current_status(std::chrono::milliseconds wait_max) const {
  if (!running_) return std::nullopt;
  caf::scoped_actor asker{running_->system};
  std::optional<status> answer;
  // CAF adds the wait to its clock: a host's milliseconds::max() would overflow it.
  const auto bounded_wait = std::clamp(wait_max, std::chrono::milliseconds::zero(),
                                       std::chrono::milliseconds{duration_max});
  asker
      ->request(running_->local->actors().warden(), caf::duration{bounded_wait},
                caf::get_atom::value)
      .receive([&](const warden_snapshot& snapshot) { answer = public_status(snapshot); },
               [&](const caf::error&) {});
  return answer;
}

void instance::subscribe(const caf::actor& listener) const {
  if (running_) caf::anon_send(running_->relay, caf::subscribe_atom::value, listener);
}

std::string instance::request_shutdown(shutdown_request request) const {
  if (!running_) return "the instance is stopped";
  // The warden would take the request and do nothing: there is no runner left to drain.
  if (running_->gone->load()) return "the runner is gone already: nothing to shut down";
  if (auto problem = reason_problem(request.reason)) return *problem;
  if (request.deadline) {
    if (auto problem = relative_deadline_problem(*request.deadline)) return *problem;
  }
  if (request.on_gone) caf::anon_send(running_->relay, gone_callback{std::move(request.on_gone)});
  const auto& warden = running_->local->actors().warden();
  if (request.forceful) {
    caf::anon_send(warden, forceful_shutdown_requested{.source = trigger_source::host,
                                                       .reason = std::move(request.reason)});
    return {};
  }
  std::optional<instant> deadline;
  if (request.deadline)
    deadline =
        std::chrono::duration_cast<instant>(running_->system.clock().now().time_since_epoch()) +
        *request.deadline;
  caf::anon_send(warden, shutdown_requested{.source = trigger_source::host,
                                            .deadline = deadline,
                                            .reason = std::move(request.reason)});
  return {};
}

void instance::stop() {
  if (!running_) return;
  caf::scoped_actor waiter{running_->system};
  waiter->monitor(running_->relay);
  waiter->send_exit(running_->relay, caf::exit_reason::user_shutdown);
  waiter->receive([](const caf::down_msg&) {});
  running_->local->stop();
  running_.reset();
}

}  // namespace runwarden::embedded

// See journal_codec.hpp. Each enum is mapped to the wire by one switch, which the compiler
// checks covers every value (-Wswitch), and read back through the same switch, so that
// encoding and decoding cannot drift apart and no value can be written as UNSPECIFIED.
#include "src/journal/journal_codec.hpp"

#include <limits>
#include <type_traits>
#include <utility>

namespace runwarden {

namespace {

namespace pb = journal::v1;

// Each switch below returns UNSPECIFIED only for a value cast from outside its enum.
pb::TriggerSource to_wire(trigger_source source) {
  switch (source) {
    case trigger_source::signal_terminate:
      return pb::TRIGGER_SOURCE_SIGNAL_TERMINATE;
    case trigger_source::signal_interrupt:
      return pb::TRIGGER_SOURCE_SIGNAL_INTERRUPT;
    case trigger_source::signal_quit:
      return pb::TRIGGER_SOURCE_SIGNAL_QUIT;
    case trigger_source::control_api:
      return pb::TRIGGER_SOURCE_CONTROL_API;
    case trigger_source::cloud_lifecycle:
      return pb::TRIGGER_SOURCE_CLOUD_LIFECYCLE;
    case trigger_source::idle_scale_in:
      return pb::TRIGGER_SOURCE_IDLE_SCALE_IN;
    case trigger_source::spot_interruption:
      return pb::TRIGGER_SOURCE_SPOT_INTERRUPTION;
    case trigger_source::rebalance_recommendation:
      return pb::TRIGGER_SOURCE_REBALANCE_RECOMMENDATION;
    case trigger_source::ec2_scheduled_maintenance:
      return pb::TRIGGER_SOURCE_EC2_SCHEDULED_MAINTENANCE;
    case trigger_source::azure_preempt:
      return pb::TRIGGER_SOURCE_AZURE_PREEMPT;
    case trigger_source::azure_terminate:
      return pb::TRIGGER_SOURCE_AZURE_TERMINATE;
    case trigger_source::azure_reboot:
      return pb::TRIGGER_SOURCE_AZURE_REBOOT;
    case trigger_source::azure_redeploy:
      return pb::TRIGGER_SOURCE_AZURE_REDEPLOY;
    case trigger_source::gcp_preemption:
      return pb::TRIGGER_SOURCE_GCP_PREEMPTION;
    case trigger_source::gcp_host_maintenance:
      return pb::TRIGGER_SOURCE_GCP_HOST_MAINTENANCE;
    case trigger_source::host:
      return pb::TRIGGER_SOURCE_HOST;
    case trigger_source::retirement:
      return pb::TRIGGER_SOURCE_RETIREMENT;
    case trigger_source::replacement:
      return pb::TRIGGER_SOURCE_REPLACEMENT;
    case trigger_source::os_shutdown:
      return pb::TRIGGER_SOURCE_OS_SHUTDOWN;
  }
  return pb::TRIGGER_SOURCE_UNSPECIFIED;
}

pb::TimerKind to_wire(timer_kind kind) {
  switch (kind) {
    case timer_kind::restart_backoff:
      return pb::TIMER_KIND_RESTART_BACKOFF;
    case timer_kind::drain_deadline:
      return pb::TIMER_KIND_DRAIN_DEADLINE;
    case timer_kind::kill_timeout:
      return pb::TIMER_KIND_KILL_TIMEOUT;
    case timer_kind::lifecycle_heartbeat:
      return pb::TIMER_KIND_LIFECYCLE_HEARTBEAT;
    case timer_kind::lifecycle_expiry:
      return pb::TIMER_KIND_LIFECYCLE_EXPIRY;
    case timer_kind::runner_start_grace:
      return pb::TIMER_KIND_RUNNER_START_GRACE;
    case timer_kind::unregistration_last_attempt:
      return pb::TIMER_KIND_UNREGISTRATION_LAST_ATTEMPT;
    case timer_kind::unregistration_alert:
      return pb::TIMER_KIND_UNREGISTRATION_ALERT;
  }
  return pb::TIMER_KIND_UNSPECIFIED;
}

pb::RestartType to_wire(restart_type type) {
  switch (type) {
    case restart_type::permanent:
      return pb::RESTART_TYPE_PERMANENT;
    case restart_type::transient:
      return pb::RESTART_TYPE_TRANSIENT;
    case restart_type::temporary:
      return pb::RESTART_TYPE_TEMPORARY;
  }
  return pb::RESTART_TYPE_UNSPECIFIED;
}

// The value of ours that to_wire maps to `value`; UNSPECIFIED and unknown values are damage.
template <class Ours, class Theirs>
Ours from_wire(Theirs value, const char* what) {
  using underlying = std::underlying_type_t<Ours>;
  for (unsigned ours = 0; ours <= std::numeric_limits<underlying>::max(); ++ours) {
    const auto candidate = static_cast<Ours>(ours);
    if (value != Theirs{} && to_wire(candidate) == value) return candidate;
  }
  throw journal_format_error{std::string{"unknown "} + what + " value " +
                             std::to_string(static_cast<int>(value))};
}

void encode_callback(const shutdown_callback& callback, pb::ShutdownCallback& message) {
  message.set_url(callback.url);
  message.set_method(callback.method);
  for (const auto& [name, value] : callback.headers) {
    auto* header = message.add_headers();
    header->set_name(name);
    header->set_value(value);
  }
}

shutdown_callback decode_callback(const pb::ShutdownCallback& message) {
  shutdown_callback callback{.url = message.url(), .method = message.method(), .headers = {}};
  for (const auto& header : message.headers())
    callback.headers.emplace_back(header.name(), header.value());
  return callback;
}

struct event_encoder {
  pb::Event& message;

  void operator()(const warden_started&) const { message.mutable_warden_started(); }
  void operator()(const runner_spawned& e) const {
    auto* spawned = message.mutable_runner_spawned();
    spawned->set_pid(e.pid);
    spawned->set_start_time_ticks(e.identity.start_time_ticks);
    spawned->set_boot_id(e.identity.boot_id);
  }
  void operator()(const runner_spawn_failed& e) const {
    auto* failed = message.mutable_runner_spawn_failed();
    failed->set_error_number(e.error_number);
    failed->set_message(e.message);
  }
  void operator()(const runner_exited& e) const {
    auto* exited = message.mutable_runner_exited();
    exited->set_pid(e.pid);
    exited->mutable_status()->set_signaled(e.status.signaled);
    exited->mutable_status()->set_value(e.status.value);
    exited->mutable_status()->set_unknown(e.status.unknown);
    if (e.retire_by) exited->set_retire_by(to_wire(*e.retire_by));
    exited->set_retire_reason(e.retire_reason);
  }
  void operator()(const shutdown_requested& e) const {
    auto* requested = message.mutable_shutdown_requested();
    requested->set_source(to_wire(e.source));
    if (e.deadline) requested->set_deadline_ns(e.deadline->count());
    requested->set_reason(e.reason);
    if (e.callback) encode_callback(*e.callback, *requested->mutable_callback());
  }
  void operator()(const forceful_shutdown_requested& e) const {
    auto* requested = message.mutable_forceful_shutdown_requested();
    requested->set_source(to_wire(e.source));
    requested->set_reason(e.reason);
  }
  void operator()(const reload_requested&) const { message.mutable_reload_requested(); }
  void operator()(const timer_fired& e) const {
    auto* fired = message.mutable_timer_fired();
    fired->set_kind(to_wire(e.kind));
    fired->set_id(e.id);
  }
  void operator()(const runner_load_observed& e) const {
    auto* observed = message.mutable_runner_load_observed();
    if (e.jobs_running) observed->set_jobs_running(*e.jobs_running);
    observed->set_runner_state(e.runner_state);
  }
  void operator()(const unregistration_finished& e) const {
    auto* finished = message.mutable_unregistration_finished();
    finished->set_confirmed(e.confirmed);
    finished->set_detail(e.detail);
  }
  void operator()(const lifecycle_action_pending& e) const {
    auto* pending = message.mutable_lifecycle_action_pending();
    pending->set_hook_name(e.action.hook_name);
    pending->set_heartbeat_timeout_ns(e.action.heartbeat_timeout.count());
    pending->set_expires_at_ns(e.action.expires_at.count());
    if (e.action.wind_down_reserve)
      pending->set_wind_down_reserve_ns(e.action.wind_down_reserve->count());
    pending->set_retained_when_abandoned(e.action.retained_when_abandoned);
  }
  void operator()(const lifecycle_action_completed& e) const {
    auto* completed = message.mutable_lifecycle_action_completed();
    completed->set_confirmed(e.confirmed);
    completed->set_detail(e.detail);
    completed->set_instance_retained(e.instance_retained);
  }
  void operator()(const lifecycle_lookup_ended& e) const {
    message.mutable_lifecycle_lookup_ended()->set_detail(e.detail);
  }
  void operator()(const runner_signal_delivered& e) const {
    auto* delivered = message.mutable_runner_signal_delivered();
    delivered->set_pid(e.pid);
    delivered->set_signal_number(e.signal_number);
  }
  void operator()(const lifecycle_client_unavailable&) const {
    message.mutable_lifecycle_client_unavailable();
  }
  void operator()(const job_reported& e) const {
    auto* reported = message.mutable_job_reported();
    reported->set_ended(e.kind == job_report_kind::ended);
    reported->set_job_id(e.job_id);
  }
};

shutdown_requested decode_shutdown(const pb::ShutdownRequested& message) {
  shutdown_requested event{.source = from_wire<trigger_source>(message.source(), "trigger")};
  if (message.has_deadline_ns()) event.deadline = instant{message.deadline_ns()};
  event.reason = message.reason();
  if (message.has_callback()) event.callback = decode_callback(message.callback());
  return event;
}

}  // namespace

pb::Event encode_event(const drain_event& event) {
  pb::Event message;
  std::visit(event_encoder{message}, event);
  return message;
}

drain_event decode_event(const pb::Event& message) {
  switch (message.kind_case()) {
    case pb::Event::kWardenStarted:
      return warden_started{};
    case pb::Event::kRunnerSpawned: {
      const auto& spawned = message.runner_spawned();
      return runner_spawned{spawned.pid(), {spawned.start_time_ticks(), spawned.boot_id()}};
    }
    case pb::Event::kRunnerSpawnFailed:
      return runner_spawn_failed{message.runner_spawn_failed().error_number(),
                                 message.runner_spawn_failed().message()};
    case pb::Event::kRunnerExited: {
      const auto& exited = message.runner_exited();
      runner_exited decoded{exited.pid(), exit_status{.signaled = exited.status().signaled(),
                                                      .value = exited.status().value(),
                                                      .unknown = exited.status().unknown()}};
      if (exited.has_retire_by())
        decoded.retire_by = from_wire<trigger_source>(exited.retire_by(), "trigger");
      decoded.retire_reason = exited.retire_reason();
      return decoded;
    }
    case pb::Event::kShutdownRequested:
      return decode_shutdown(message.shutdown_requested());
    case pb::Event::kForcefulShutdownRequested: {
      const auto& requested = message.forceful_shutdown_requested();
      return forceful_shutdown_requested{
          .source = from_wire<trigger_source>(requested.source(), "trigger"),
          .reason = requested.reason()};
    }
    case pb::Event::kReloadRequested:
      return reload_requested{};
    case pb::Event::kTimerFired:
      return timer_fired{from_wire<timer_kind>(message.timer_fired().kind(), "timer kind"),
                         message.timer_fired().id()};
    case pb::Event::kRunnerLoadObserved: {
      const auto& observed = message.runner_load_observed();
      return runner_load_observed{
          observed.has_jobs_running() ? std::optional{observed.jobs_running()} : std::nullopt,
          observed.runner_state()};
    }
    case pb::Event::kUnregistrationFinished:
      return unregistration_finished{message.unregistration_finished().confirmed(),
                                     message.unregistration_finished().detail()};
    case pb::Event::kLifecycleActionPending: {
      const auto& pending = message.lifecycle_action_pending();
      lifecycle_action action{.hook_name = pending.hook_name(),
                              .heartbeat_timeout = duration{pending.heartbeat_timeout_ns()},
                              .expires_at = instant{pending.expires_at_ns()},
                              .retained_when_abandoned = pending.retained_when_abandoned()};
      if (pending.has_wind_down_reserve_ns())
        action.wind_down_reserve = duration{pending.wind_down_reserve_ns()};
      return lifecycle_action_pending{std::move(action)};
    }
    case pb::Event::kLifecycleActionCompleted:
      return lifecycle_action_completed{message.lifecycle_action_completed().confirmed(),
                                        message.lifecycle_action_completed().detail(),
                                        message.lifecycle_action_completed().instance_retained()};
    case pb::Event::kLifecycleLookupEnded:
      return lifecycle_lookup_ended{message.lifecycle_lookup_ended().detail()};
    case pb::Event::kRunnerSignalDelivered:
      return runner_signal_delivered{message.runner_signal_delivered().pid(),
                                     message.runner_signal_delivered().signal_number()};
    case pb::Event::kLifecycleClientUnavailable:
      return lifecycle_client_unavailable{};
    case pb::Event::kJobReported:
      return job_reported{
          message.job_reported().ended() ? job_report_kind::ended : job_report_kind::started,
          message.job_reported().job_id()};
    case pb::Event::KIND_NOT_SET:
      break;
  }
  throw journal_format_error{"event of no known kind"};
}

pb::DrainConfig encode_config(const drain_config& config) {
  pb::DrainConfig message;
  message.set_graceful_signal(config.graceful_signal);
  message.set_forceful_signal(config.forceful_signal);
  auto* restart = message.mutable_restart();
  restart->set_type(to_wire(config.restart.type));
  restart->set_backoff_initial_ms(config.restart.backoff_initial.count());
  restart->set_backoff_max_ms(config.restart.backoff_max.count());
  restart->set_jitter(config.restart.jitter);
  restart->set_budget_restarts_max(config.restart.budget_restarts_max);
  restart->set_budget_window_ms(config.restart.budget_window.count());
  if (config.drain_timeout) message.set_drain_timeout_ns(config.drain_timeout->count());
  message.set_kill_timeout_ns(config.kill_timeout.count());
  message.set_random_seed(config.random_seed);
  message.set_unregister(config.unregister);
  message.set_unregister_before_stop(config.unregister_before_stop);
  message.set_wind_down_reserve_ns(config.wind_down_reserve.count());
  message.set_await_lifecycle_lookup(config.await_lifecycle_lookup);
  message.set_runner_start_grace_ns(config.runner_start_grace.count());
  if (config.unregistration_alert_after)
    message.set_unregistration_alert_after_ns(config.unregistration_alert_after->count());
  if (config.unregister_alongside_below)
    message.set_unregister_alongside_below_ns(config.unregister_alongside_below->count());
  return message;
}

drain_config decode_config(const pb::DrainConfig& message) {
  using std::chrono::milliseconds;
  const auto& restart = message.restart();
  drain_config config{.graceful_signal = message.graceful_signal(),
                      .forceful_signal = message.forceful_signal(),
                      .restart = {.type = from_wire<restart_type>(restart.type(), "restart type"),
                                  .backoff_initial = milliseconds{restart.backoff_initial_ms()},
                                  .backoff_max = milliseconds{restart.backoff_max_ms()},
                                  .jitter = restart.jitter(),
                                  .budget_restarts_max = restart.budget_restarts_max(),
                                  .budget_window = milliseconds{restart.budget_window_ms()}},
                      .drain_timeout = std::nullopt,
                      .kill_timeout = duration{message.kill_timeout_ns()},
                      .random_seed = message.random_seed(),
                      .unregister = message.unregister(),
                      .unregister_before_stop = message.unregister_before_stop(),
                      .wind_down_reserve = duration{message.wind_down_reserve_ns()},
                      .await_lifecycle_lookup = message.await_lifecycle_lookup(),
                      .runner_start_grace = duration{message.runner_start_grace_ns()}};
  if (message.has_drain_timeout_ns()) config.drain_timeout = duration{message.drain_timeout_ns()};
  if (message.has_unregistration_alert_after_ns())
    config.unregistration_alert_after = duration{message.unregistration_alert_after_ns()};
  if (message.has_unregister_alongside_below_ns())
    config.unregister_alongside_below = duration{message.unregister_alongside_below_ns()};
  return config;
}

std::string encode_record(const journal_record& record) {
  pb::Record message;
  if (const auto* header = std::get_if<journal_header>(&record)) {
    auto* out = message.mutable_header();
    out->set_created_by(header->created_by);
    out->set_created_unix_ns(header->created_unix_ns);
    *out->mutable_drain_config() = encode_config(header->config);
  } else {
    const auto& entry = std::get<journal_entry>(record);
    auto* out = message.mutable_entry();
    out->set_sequence(entry.sequence);
    out->set_time_ns(entry.at.count());
    *out->mutable_event() = encode_event(entry.event);
    for (const auto& effect : entry.effects) out->add_effects(effect);
  }
  return message.SerializeAsString();
}

journal_record decode_record(std::string_view payload) {
  pb::Record message;
  if (!message.ParseFromArray(payload.data(), static_cast<int>(payload.size())))
    throw journal_format_error{"payload is not a protobuf Record"};
  switch (message.kind_case()) {
    case pb::Record::kHeader: {
      const auto& header = message.header();
      if (!header.has_drain_config()) throw journal_format_error{"header without drain_config"};
      return journal_header{.created_by = header.created_by(),
                            .created_unix_ns = header.created_unix_ns(),
                            .config = decode_config(header.drain_config())};
    }
    case pb::Record::kEntry: {
      const auto& entry = message.entry();
      if (!entry.has_event()) throw journal_format_error{"entry without event"};
      return journal_entry{.sequence = entry.sequence(),
                           .at = instant{entry.time_ns()},
                           .event = decode_event(entry.event()),
                           .effects = {entry.effects().begin(), entry.effects().end()}};
    }
    case pb::Record::KIND_NOT_SET:
      break;
  }
  throw journal_format_error{"record of no known kind"};
}

}  // namespace runwarden

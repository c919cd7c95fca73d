// See fleet_run.hpp.
#include "src/sim/fleet_run.hpp"

#include <csignal>
#include <memory>
#include <vector>

#include "actors/autoscaling_client/autoscaling_client_actor.hpp"
#include "actors/lifecycle_hooks/lifecycle_hooks_actor.hpp"
#include "actors/lifecycle_watcher/lifecycle_watcher_actor.hpp"
#include "actors/metrics_poller/metrics_poller_actor.hpp"
#include "actors/scaler/scaler_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "actors/unregistrar/unregistration_phase_actor.hpp"
#include "actors/warden/warden_actor.hpp"
#include "caf/scheduler/test_coordinator.hpp"
#include "messages/supervisor_messages.hpp"
#include "src/journal/journal_writer.hpp"
#include "src/logging/logging.hpp"
#include "src/sim/sim_ports.hpp"

namespace runwarden {

namespace {

using coordinator = caf::scheduler::test_coordinator;

// One journal record as the warden handed it over.
struct journaled_step {
  instant at;
  drain_event event;
  std::vector<drain_effect> effects;
};

// One booted instance's runwarden, as far as the run needs to reach it. It outlives a
// crash: the journal, the status seen last and the trigger carry over to the restart.
struct instance_actors {
  caf::actor warden;
  std::vector<caf::actor> all;
  std::vector<journaled_step> journal;
  std::string trigger;  // the drain's trigger once one began
  bool gone = false;
  warden_status last_status = warden_status::starting;
  // While crashed: down, and the drain deadline its machine had (none can change meanwhile).
  bool down = false;
  std::optional<sim_seconds> deadline_while_down;
};

struct run_state {
  std::shared_ptr<fleet_world> world;
  std::vector<instance_actors> instances;
  caf::actor_clock::time_point start;
};

// Watches one warden: its status may only move forward, its trigger goes in the report.
caf::behavior status_recorder(caf::event_based_actor* self, std::shared_ptr<run_state> run,
                              std::size_t index) {
  return {
      [=](const warden_snapshot& snapshot) {
        auto& instance = run->instances[index];
        if (snapshot.status < instance.last_status)
          run->world->violate(sim_now(self->clock().now(), run->start), "status_backwards",
                              fmt::format("{}: {} after {}", run->world->instances()[index].id,
                                          to_string(snapshot.status),
                                          to_string(instance.last_status)));
        const auto now = sim_now(self->clock().now(), run->start);
        if (snapshot.status == warden_status::shutting_down &&
            instance.last_status != warden_status::shutting_down)
          run->world->mark(index, now, "drain_started");
        if (snapshot.status == warden_status::gone && instance.last_status != warden_status::gone)
          run->world->mark(index, now, "gone");
        instance.last_status = snapshot.status;
        if (snapshot.trigger) instance.trigger = std::string{to_string(*snapshot.trigger)};
      },
      [=](const warden_exited&) { run->instances[index].gone = true; },
  };
}

std::uint64_t instance_seed(const fleet_run_options& options, std::size_t index) {
  return options.seed * 1000003 + index;
}

drain_config sim_drain_config(std::uint64_t seed, bool broken) {
  return drain_config{.graceful_signal = broken ? SIGTERM : SIGQUIT,
                      .forceful_signal = SIGTERM,
                      .restart = restart_settings{},
                      .drain_timeout = std::nullopt,
                      .kill_timeout = std::chrono::seconds{10},
                      .random_seed = seed,
                      .unregister = true,
                      .await_lifecycle_lookup = true};
}

// Where the instance's runner is registered: GitLab, or GitHub's repository sim/fleet.
unregister_target registration_of(const fleet_scenario& scenario, const sim_instance& instance) {
  if (scenario.api == runner_api::gitlab)
    return gitlab_runner{"sim", "http://gitlab.sim", "glrt-sim", "s_sim"};
  github_runner runner;
  runner.api_url = "http://github.sim";
  runner.owner = "sim";
  runner.repo = "fleet";
  runner.runner_name = instance.id;
  runner.token = "ghs_sim";
  return runner;
}

void boot(caf::actor_system& system, const std::shared_ptr<run_state>& run, std::size_t index,
          const fleet_run_options& options) {
  const auto& scenario = run->world->scenario();
  const sim_port_wiring ports{run->world, index, run->start};
  const std::uint64_t seed = instance_seed(options, index);
  // A GitHub Actions runner has no metrics page; runwarden then knows only its process.
  const bool reads_metrics = scenario.api == runner_api::gitlab;
  auto& actors = run->instances[index];
  const auto http = system.spawn(sim_http_port, ports);
  const auto recorder = system.spawn(status_recorder, run, index);
  const auto wall_clock = [run, &system] {
    return sim_wall_time(sim_now(system.clock().now(), run->start));
  };
  const journal_sink journal = [run, index](instant at, const drain_event& event,
                                            const std::vector<drain_effect>& effects) {
    run->instances[index].journal.push_back({at, event, effects});
    return std::optional<std::string>{};
  };
  // Back from a crash: the drain machine folds the journal in, as runwarden run would.
  std::vector<journal_entry> recovered;
  for (const auto& step : actors.journal)
    recovered.push_back({recovered.size() + 1, step.at, step.event, {}});
  actors.down = false;
  const auto unregistration = system.spawn(
      unregistration_phase_actor,
      unregistrar_wiring{.http_port = http,
                         .listener = {},
                         .targets = {registration_of(scenario, run->world->instances()[index])},
                         .limits = {.retry_initial = std::chrono::seconds{1},
                                    .retry_max = std::chrono::seconds{30},
                                    .attempts_max = 0},
                         .timeout = std::chrono::seconds{5},
                         .random_seed = seed});
  actors.warden = system.spawn(
      warden_actor, warden_wiring{.config = sim_drain_config(seed, options.broken_force_at_once),
                                  .process_port = system.spawn(sim_process_port, ports),
                                  .exit_listener = recorder,
                                  .unregistrar = unregistration,
                                  .journal = journal,
                                  .recovered = std::move(recovered),
                                  .wall_clock = wall_clock});
  const auto client = system.spawn(
      autoscaling_client_actor,
      autoscaling_client_wiring{.http_port = http,
                                .imds_endpoint = "http://imds.sim",
                                .fixed_credentials = aws_credentials{"AKIDSIMULATION",
                                                                     secret_text{"sim"}, {}},
                                .region = "sim-1",
                                .environment = {{"AWS_ENDPOINT_URL_AUTO_SCALING",
                                                 "http://autoscaling.sim"}},
                                .random_seed = seed,
                                .wall_clock = wall_clock});
  // The deciding workers run under supervisors as in runwarden run; the warden hears of
  // each incarnation from them (the hooks actor's first one included).
  const auto supervised = [&](std::string_view id, auto behavior, auto wiring) {
    const auto supervisor = spawn_worker_supervisor(
        system, {{std::string{id}}, [behavior, wiring](caf::local_actor* parent) {
                   return parent->spawn(behavior, wiring);
                 }});
    caf::anon_send(supervisor, caf::subscribe_atom::value, actors.warden);
    actors.all.push_back(supervisor);
  };
  caf::anon_send(actors.warden, subscribe_atom::value, recorder);
  actors.all = {actors.warden, caf::actor_cast<caf::actor>(http), recorder, unregistration,
                client};
  supervised(lifecycle_hooks_child_id, lifecycle_hooks_actor,
             lifecycle_hooks_wiring{.autoscaling_client = client,
                                    .warden = actors.warden,
                                    .hook_name = std::nullopt,
                                    .seen_late_by = scenario.poll_interval,
                                    .random_seed = seed,
                                    .ready_needs_metrics = reads_metrics});
  if (reads_metrics)
    supervised(metrics_poller_child_id, metrics_poller_actor,
               metrics_poller_wiring{.url = "http://runner.sim/metrics", .http_port = http,
                                     .listener = actors.warden});
  supervised(lifecycle_watcher_child_id, lifecycle_watcher_actor,
             lifecycle_watcher_wiring{.http_port = http,
                                      .listener = actors.warden,
                                      .poller = {.endpoint = "http://imds.sim",
                                                 .policy = lifecycle_watch_policy{},
                                                 .random_seed = seed},
                                      .poll_interval = scenario.poll_interval});
  if (scenario.scaling) {
    scaling_policy policy;
    policy.capacity = scenario.concurrency;
    supervised(scaler_child_id, scaler_actor,
               scaler_wiring{.policy = policy, .random_seed = seed,
                             .autoscaling_client = client, .warden = actors.warden});
  }
}

void stop(const std::shared_ptr<run_state>& run, std::size_t index) {
  for (const auto& actor : run->instances[index].all)
    caf::anon_send_exit(actor, caf::exit_reason::kill);
}

std::optional<sim_seconds> drain_deadline(const std::shared_ptr<run_state>& run, std::size_t index) {
  const auto& actors = run->instances[index];
  if (actors.down) return actors.deadline_while_down;
  const auto& warden = actors.warden;
  if (!warden) return std::nullopt;
  auto* actor = caf::actor_cast<caf::abstract_actor*>(warden);
  const auto& machine = dynamic_cast<caf::stateful_actor<warden_state>&>(*actor).state.machine;
  const auto deadline = machine->state().drain_deadline;
  if (!deadline) return std::nullopt;
  return std::chrono::duration<double>(*deadline - run->start.time_since_epoch()).count();
}

// kill -9 of one runwarden: every actor of it ends at once, its runner and journal stay.
bool crash(const std::shared_ptr<run_state>& run, std::size_t index) {
  auto& actors = run->instances[index];
  if (actors.gone || actors.down || !actors.warden) return false;
  actors.deadline_while_down = drain_deadline(run, index);
  actors.down = true;
  stop(run, index);
  return true;
}

// The chosen instance's journal, as runwarden run would have written it.
std::string write_journal(const run_state& run, const fleet_run_options& options) {
  const auto& instances = run.world->instances();
  const auto wanted = options.journal_instance.empty() && !instances.empty()
                          ? instances.front().id
                          : options.journal_instance;
  std::size_t index = 0;
  while (index < instances.size() && instances[index].id != wanted) ++index;
  if (index == instances.size())
    return fmt::format("no journal for instance \"{}\": the run launched {} to {}", wanted,
                       instances.empty() ? "none" : instances.front().id,
                       instances.empty() ? "none" : instances.back().id);
  if (index >= run.instances.size() || run.instances[index].journal.empty())
    return fmt::format("no journal for instance \"{}\": it never booted", wanted);
  auto created = journal_writer::create(
      options.journal_file,
      journal_header{"runwarden sim", 0,
                     sim_drain_config(instance_seed(options, index), options.broken_force_at_once)},
      journal_sync_policy{0});
  if (!created.writer) return created.error;
  for (const auto& step : run.instances[index].journal)
    if (auto error = created.writer->append(step.at, step.event, step.effects)) return *error;
  return created.writer->sync().value_or("");
}

// Delivers messages and fires timers in time order until the next world tick is due.
void run_until(coordinator& scheduler, const caf::actor_clock::time_point& until) {
  for (;;) {
    scheduler.run();
    auto& timers = scheduler.clock().schedule();
    if (timers.empty() || timers.begin()->first > until) break;
    if (timers.begin()->first > scheduler.clock().current_time)
      scheduler.clock().current_time = timers.begin()->first;
    scheduler.clock().trigger_timeout();
  }
  if (until > scheduler.clock().current_time) scheduler.clock().current_time = until;
}

}  // namespace

fleet_run_result run_fleet(const fleet_scenario& scenario, const fleet_run_options& options) {
  warden_logger()->set_level(parse_log_level(options.log_level).value_or(spdlog::level::off));
  caf::actor_system_config config;
  config.set("scheduler.policy", caf::atom("testing"));
  caf::actor_system system{config};
  system.await_actors_before_shutdown(false);
  auto& scheduler = dynamic_cast<coordinator&>(system.scheduler());

  auto run = std::make_shared<run_state>();
  run->world = std::make_shared<fleet_world>(scenario, options.seed);
  run->start = scheduler.clock().now();
  fleet_run_result result;
  auto& world = *run->world;
  world.on_boot = [&](std::size_t index) {
    if (run->instances.size() <= index) run->instances.resize(index + 1);
    boot(system, run, index, options);
  };
  world.on_gone = [&](std::size_t index) { stop(run, index); };
  world.on_runner_exit = [&](std::size_t index, exit_status status) {
    caf::anon_send(run->instances[index].warden,
                   runner_exited{world.instances()[index].runner.pid, status});
  };
  world.drain_deadline_of = [&](std::size_t index) { return drain_deadline(run, index); };
  world.on_runwarden_crash = [&](std::size_t index) { return crash(run, index); };

  const auto seconds = scenario.duration.count();
  for (std::int64_t second = 0; second <= seconds; ++second) {
    run_until(scheduler, run->start + std::chrono::seconds{second});
    world.tick(static_cast<sim_seconds>(second));
  }
  scheduler.run();
  world.finish(static_cast<sim_seconds>(seconds));
  std::vector<std::pair<std::string, bool>> drains;
  for (std::size_t i = 0; i < run->instances.size(); ++i) {
    drains.emplace_back(run->instances[i].trigger, run->instances[i].gone);
    stop(run, i);
  }
  scheduler.run();
  if (!options.journal_file.empty()) result.error = write_journal(*run, options);
  result.report = make_report(world, options.seed, drains);
  result.timeline = world.timeline(scenario.name + ", seed " + std::to_string(options.seed));
  world.on_boot = nullptr;
  world.on_gone = nullptr;
  world.on_runner_exit = nullptr;
  world.drain_deadline_of = nullptr;
  world.on_runwarden_crash = nullptr;
  return result;
}

}  // namespace runwarden

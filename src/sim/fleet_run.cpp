// See fleet_run.hpp.
#include "src/sim/fleet_run.hpp"

#include <csignal>
#include <memory>
#include <vector>

#include "actors/azure_watcher/azure_metadata_watcher.hpp"
#include "actors/gcp_watcher/gcp_metadata_watcher.hpp"
#include "actors/lifecycle_watcher/imds_lifecycle_watcher.hpp"
#include "actors/notifier/webhook_notifier.hpp"
#include "caf/scheduler/test_coordinator.hpp"
#include "src/assembly/drain_config_from_settings.hpp"
#include "src/assembly/instance.hpp"
#include "src/journal/journal_writer.hpp"
#include "src/logging/logging.hpp"
#include "src/sim/azure_metadata_service.hpp"
#include "src/sim/gcp_metadata_service.hpp"
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
  std::optional<instance> runwarden;
  warden_actor warden;  // kept past a crash: what the world sends the dead one is lost
  std::vector<caf::actor> ports;  // the HTTP port and the status recorder
  std::vector<journaled_step> journal;
  std::string trigger;  // the drain's trigger once one began
  bool gone = false;
  warden_status last_status = warden_status::starting;
  std::optional<instant> drain_deadline;  // as the warden last published it
  // While crashed: down, and the drain deadline its machine had (none can change meanwhile).
  bool down = false;
  std::optional<sim_seconds> deadline_while_down;
};

struct run_state {
  std::shared_ptr<fleet_world> world;
  std::vector<instance_actors> instances;
  caf::actor_clock::time_point start;
};

// Watches one warden: its status may only move forward, its trigger goes in the report, and
// its drain deadline is what the world asks for (as any subscriber reads it: no peeking
// into the warden's state).
using status_recorder_actor = status_subscriber_actor::extend_with<warden_exit_listener_actor>;

status_recorder_actor::behavior_type status_recorder(status_recorder_actor::pointer self,
                                                     std::shared_ptr<run_state> run,
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
        instance.drain_deadline = snapshot.drain_deadline;
        if (snapshot.trigger) instance.trigger = std::string{to_string(*snapshot.trigger)};
      },
      [=](const warden_exited&) { run->instances[index].gone = true; },
      // The guest's SIGTERM (Google Cloud) reaching a warden already gone: runwarden run's
      // exit listener would stop lingering; nothing lingers here.
      [=](const os_signal_received&) {},
      [](refused_atom) {},  // one subscriber per warden: never refused
  };
}

std::uint64_t instance_seed(const fleet_run_options& options, std::size_t index) {
  return options.seed * 1000003 + index;
}

// What an operator would write in runwarden.toml for a simulated instance, unregistered from
// the scenario's CI server, on the scenario's cloud (AWS with lifecycle hooks, Azure, Google
// Cloud): a gitlab-runner (it drains on SIGQUIT), or an Actions runner, which has no drain
// signal (kind generic: SIGTERM ends it), so that runwarden unregisters it first, as
// runwarden run does. The drain config comes from these settings as in runwarden run.
settings sim_settings(const fleet_scenario& scenario, bool broken) {
  settings config;
  config.runner.kind =
      scenario.api == runner_api::gitlab ? runner_kind_name::gitlab : runner_kind_name::generic;
  if (broken) {
    config.runner.kind = runner_kind_name::generic;
    config.runner.graceful_signal = SIGTERM;
    config.runner.forceful_signal = SIGTERM;
  }
  config.drain.kill_timeout = std::chrono::seconds{10};
  config.unregister.kind =
      scenario.api == runner_api::gitlab ? unregister_kind::gitlab : unregister_kind::github;
  switch (scenario.cloud) {
    case fleet_cloud::aws:
      config.cloud.provider = cloud_provider::aws;
      config.aws.imds_endpoint = "http://imds.sim";
      config.aws.poll_interval = scenario.poll_interval;
      break;
    case fleet_cloud::azure:
      config.cloud.provider = cloud_provider::azure;
      config.azure.metadata_endpoint = std::string{sim_azure_endpoint};
      config.azure.poll_interval = scenario.poll_interval;
      break;
    case fleet_cloud::gcp:
      config.cloud.provider = cloud_provider::gcp;
      config.gcp.metadata_endpoint = std::string{sim_gcp_endpoint};
      // The guest's SIGTERM carries no deadline: a drain timeout leaves a third of the
      // shutdown period for the forceful signal and the unregistration.
      config.drain.timeout = std::chrono::milliseconds{scenario.shutdown_period} * 2 / 3;
      break;
  }
  return config;
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

// The cloud's part of a simulated instance's plan: on AWS the IMDSv2 watcher, the Auto Scaling
// client and the lifecycle hooks actor; on Azure and Google Cloud their watcher.
void plan_cloud(instance_plan& plan, const fleet_scenario& scenario, const settings& config,
                std::uint64_t seed, bool reads_metrics) {
  if (scenario.cloud == fleet_cloud::azure) {
    plan.azure_watcher = plan_azure_watcher(config.azure, seed).wiring;
    return;
  }
  if (scenario.cloud == fleet_cloud::gcp) {
    plan.gcp_watcher = plan_gcp_watcher(config.gcp, {}, seed).wiring;
    return;
  }
  plan.lifecycle_watcher = plan_lifecycle_watcher(config.aws, {}, seed).wiring;
  plan.autoscaling_client = autoscaling_client_wiring{
      .http_port = {},
      .imds_endpoint = "http://imds.sim",
      .fixed_credentials = aws_credentials{"AKIDSIMULATION", secret_text{"sim"}, {}},
      .region = "sim-1",
      .environment = {{"AWS_ENDPOINT_URL_AUTO_SCALING", "http://autoscaling.sim"}},
      .random_seed = seed};
  plan.lifecycle_hooks = lifecycle_hooks_wiring{.autoscaling_client = {},
                                                .warden = {},
                                                .hook_name = std::nullopt,
                                                .seen_late_by = scenario.poll_interval,
                                                .retry_max = sim_retry_wait_max,
                                                .call_budget = sim_completion_call_budget,
                                                .random_seed = seed,
                                                .ready_needs_metrics = reads_metrics};
}

// The simulated instance's plan: what runwarden run would plan for sim_settings, with the
// CI server's, the metadata service's and the Auto Scaling API's simulated addresses.
instance_plan sim_plan(const fleet_scenario& scenario, const sim_instance& simulated,
                       std::uint64_t seed, bool broken) {
  const auto config = sim_settings(scenario, broken);
  // A GitHub Actions runner has no metrics page; runwarden then knows only its process.
  const bool reads_metrics = scenario.api == runner_api::gitlab;
  instance_plan plan{
      .drain = make_drain_config(config, seed),
      .notifier = *plan_notifier(config.webhook, seed, {}).wiring,
      .unregistration = unregistrar_wiring{.http_port = {},
                                           .listener = {},
                                           .targets = {registration_of(scenario, simulated)},
                                           .limits = {.retry_initial = std::chrono::seconds{1},
                                                      .retry_max = sim_retry_wait_max,
                                                      .attempts_max = 0},
                                           .timeout = sim_unregister_timeout,
                                           .random_seed = seed}};
  plan_cloud(plan, scenario, config, seed, reads_metrics);
  if (reads_metrics)
    plan.metrics_poller = metrics_poller_wiring{
        .url = "http://runner.sim/metrics", .http_port = {}, .listener = {}};
  if (scenario.scaling) {
    scaling_policy policy;
    policy.capacity = scenario.concurrency;
    plan.scaler = scaler_wiring{.policy = policy, .random_seed = seed, .autoscaling_client = {},
                                .warden = {}};
  }
  return plan;
}

void boot(caf::actor_system& system, const std::shared_ptr<run_state>& run, std::size_t index,
          const fleet_run_options& options) {
  const sim_port_wiring ports{run->world, index, run->start};
  auto& actors = run->instances[index];
  const auto http = system.spawn(sim_http_port, ports);
  const auto recorder = system.spawn(status_recorder, run, index);
  // Back from a crash: the drain machine folds the journal in, as runwarden run would.
  std::vector<journal_entry> recovered;
  for (const auto& step : actors.journal)
    recovered.push_back({recovered.size() + 1, step.at, step.event, {}});
  actors.down = false;
  actors.runwarden = instance::start(
      system,
      sim_plan(run->world->scenario(), run->world->instances()[index],
               instance_seed(options, index), options.broken_force_at_once),
      instance_ports{
          .process = system.spawn(sim_process_port, ports),
          .http = [http] { return http; },
          .exit_listener = recorder,
          .journal = [run, index](instant at, const drain_event& event,
                                  const std::vector<drain_effect>& effects) {
            run->instances[index].journal.push_back({at, event, effects});
            return std::optional<std::string>{};
          },
          .recovered = std::move(recovered),
          .wall_clock = [run, &system] {
            return sim_wall_time(sim_now(system.clock().now(), run->start));
          }});
  actors.warden = actors.runwarden->warden();
  actors.ports = {caf::actor_cast<caf::actor>(http), caf::actor_cast<caf::actor>(recorder)};
  caf::anon_send(actors.warden, subscribe_atom::value, status_subscriber_actor{recorder});
}

void stop(const std::shared_ptr<run_state>& run, std::size_t index) {
  auto& actors = run->instances[index];
  if (actors.runwarden) actors.runwarden->stop(caf::exit_reason::kill);
  for (const auto& actor : actors.ports) caf::anon_send_exit(actor, caf::exit_reason::kill);
}

std::optional<sim_seconds> drain_deadline(const std::shared_ptr<run_state>& run, std::size_t index) {
  const auto& actors = run->instances[index];
  if (actors.down) return actors.deadline_while_down;
  if (!actors.drain_deadline) return std::nullopt;
  return std::chrono::duration<double>(*actors.drain_deadline - run->start.time_since_epoch())
      .count();
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
                     make_drain_config(sim_settings(run.world->scenario(),
                                                    options.broken_force_at_once),
                                       instance_seed(options, index))},
      journal_sync_policy{0});
  if (!created.writer) return created.error;
  for (const auto& step : run.instances[index].journal)
    if (auto error = created.writer->append(step.at, step.event, step.effects)) return *error;
  return created.writer->sync().value_or("");
}

// Delivers messages and fires timers in time order until the next world tick is due; each
// time every message of an instant is delivered, the world judges that instant's signals.
void run_until(coordinator& scheduler, fleet_world& world,
               const caf::actor_clock::time_point& until) {
  for (;;) {
    scheduler.run();
    world.judge_killing_signals();
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
  world.draining_of = [&](std::size_t index) {
    return run->instances[index].last_status >= warden_status::shutting_down;
  };
  world.on_runwarden_crash = [&](std::size_t index) { return crash(run, index); };
  world.on_shutdown_signal = [&](std::size_t index) {
    const auto& actors = run->instances[index];
    if (!actors.down && !actors.gone && actors.warden)
      caf::anon_send(actors.warden, os_signal_received{SIGTERM});
  };

  const auto seconds = scenario.duration.count();
  for (std::int64_t second = 0; second <= seconds; ++second) {
    run_until(scheduler, world, run->start + std::chrono::seconds{second});
    world.tick(static_cast<sim_seconds>(second));
  }
  scheduler.run();
  world.judge_killing_signals();
  world.finish(static_cast<sim_seconds>(seconds));
  std::vector<std::pair<std::string, bool>> drains;
  for (std::size_t i = 0; i < run->instances.size(); ++i) {
    drains.emplace_back(run->instances[i].trigger, run->instances[i].gone);
    stop(run, i);
  }
  scheduler.run();
  world.judge_killing_signals();
  if (!options.journal_file.empty()) result.error = write_journal(*run, options);
  result.report = make_report(world, options.seed, drains);
  result.timeline = world.timeline(scenario.name + ", seed " + std::to_string(options.seed));
  world.on_boot = nullptr;
  world.on_gone = nullptr;
  world.on_runner_exit = nullptr;
  world.drain_deadline_of = nullptr;
  world.draining_of = nullptr;
  world.on_runwarden_crash = nullptr;
  world.on_shutdown_signal = nullptr;
  return result;
}

}  // namespace runwarden

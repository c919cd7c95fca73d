// See fleet_run.hpp.
#include "src/sim/fleet_run.hpp"

#include <csignal>
#include <memory>
#include <vector>

#include "caf/scheduler/test_coordinator.hpp"
#include "src/assembly/instance.hpp"
#include "src/assembly/instance_planning.hpp"
#include "src/control/warden_bridge.hpp"
#include "src/journal/journal_writer.hpp"
#include "src/logging/logging.hpp"
#include "src/sim/fleet_checker.hpp"
#include "src/sim/sim_inputs.hpp"
#include "src/sim/sim_ports.hpp"
#include "src/util/assert.hpp"

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
  warden_actor warden;            // kept past a crash: what the world sends the dead one is lost
  std::vector<caf::actor> ports;  // the HTTP port and the status recorder
  std::vector<journaled_step> journal;
  drain_config drain;   // as planned: the journal's header
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
        const auto now = sim_now(self->clock().now(), run->start);
        run->world->checker().status_published(now, run->world->instances()[index],
                                               instance.last_status, snapshot.status);
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

// The simulated instance's plan, as runwarden run plans its own (instance_planning), from
// inputs held in memory. Every worker draws its random numbers from the instance's seed.
instance_plan sim_plan(const fleet_scenario& scenario, const sim_instance& simulated,
                       std::uint64_t seed, bool broken) {
  auto planned = plan_instance(
      sim_inputs(scenario, simulated, broken), [seed] { return seed; },
      std::make_shared<metrics_registry>("sim", sim_wall_time(0)));
  // The scenario reader refuses what planning would: a refusal here is a bug of sim_inputs.
  RUNWARDEN_ASSERT(planned.plan);
  return std::move(*planned.plan);
}

// Whether a journaled event carries a decision to retire the instance: a runner's end that
// retires it, or the drain a retirement or a replacement asked for (warden_retirement.hpp).
bool decides_retirement(const drain_event& event) {
  if (const auto* exited = std::get_if<runner_exited>(&event)) return exited->retire_by.has_value();
  const auto* asked = std::get_if<shutdown_requested>(&event);
  return asked != nullptr && (asked->source == trigger_source::retirement ||
                              asked->source == trigger_source::replacement);
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
  auto plan = sim_plan(run->world->scenario(), run->world->instances()[index],
                       instance_seed(options, index), options.broken_force_at_once);
  actors.drain = plan.drain;
  actors.runwarden = instance::start(
      system, std::move(plan),
      instance_ports{
          .process = system.spawn(sim_process_port, ports),
          .http = [http] { return http; },
          .exit_listener = recorder,
          .journal =
              [run, index, &system](instant at, const drain_event& event,
                                    const std::vector<drain_effect>& effects) {
                run->instances[index].journal.push_back({at, event, effects});
                if (decides_retirement(event))
                  run->world->retirement_decided(index, sim_now(system.clock().now(), run->start));
                return std::optional<std::string>{};
              },
          .recovered = std::move(recovered),
          .wall_clock =
              [run, &system] { return sim_wall_time(sim_now(system.clock().now(), run->start)); }});
  actors.warden = actors.runwarden->warden();
  actors.ports = {caf::actor_cast<caf::actor>(http), caf::actor_cast<caf::actor>(recorder)};
  caf::anon_send(actors.warden, subscribe_atom::value, status_subscriber_actor{recorder});
}

// The runner's job hook ran `runwarden ctl job start|end ID`: the report takes the control
// API's own path from there, as Warden.ReportJob takes it (warden_service.cpp): the job id
// checked, then asked of the warden through the bridge the gRPC handlers use. No socket:
// while its runwarden is down or gone, ctl cannot connect and the report is lost.
void report_job(caf::actor_system& system, const std::shared_ptr<run_state>& run, std::size_t index,
                job_report_kind kind, std::string job_id) {
  if (index >= run->instances.size()) return;
  const auto& actors = run->instances[index];
  if (actors.down || actors.gone || !actors.warden || job_id_problem(job_id)) return;
  const control_context context{.system = system,
                                .warden = actors.warden,
                                .token = std::nullopt,
                                .warden_shutdown_open = true,
                                .allow_link_local_callbacks = false,
                                .wall_clock = nullptr,
                                .watches = nullptr,
                                .connections = nullptr};
  ask_warden(
      context, [](const warden_snapshot&) {}, [](const std::string&) {},
      job_reported{kind, std::move(job_id)});
}

void stop(const std::shared_ptr<run_state>& run, std::size_t index) {
  auto& actors = run->instances[index];
  if (actors.runwarden) actors.runwarden->stop(caf::exit_reason::kill);
  for (const auto& actor : actors.ports) caf::anon_send_exit(actor, caf::exit_reason::kill);
}

std::optional<sim_seconds> drain_deadline(const std::shared_ptr<run_state>& run,
                                          std::size_t index) {
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
      options.journal_file, journal_header{"runwarden sim", 0, run.instances[index].drain},
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
  world.on_job_report = [&](std::size_t index, job_report_kind kind, std::string job_id) {
    report_job(system, run, index, kind, std::move(job_id));
  };
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
  world.on_job_report = nullptr;
  return result;
}

}  // namespace runwarden

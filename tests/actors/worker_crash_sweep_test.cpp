// A whole drain in virtual time with the workers wired as run_command wires them, each under
// a supervisor of its own (worker_supervision.hpp): the webhook notifier, the metrics poller
// and the unregistration step, around the real warden. One scripted HTTP port plays the
// runner's metrics page, the webhook receiver and GitLab; it holds every answer until the
// test releases it, so a crash can fall while a request is in flight.
//
// The sweep crashes one worker at one point of the drain (with the exit reason an escaping
// exception gives an actor in CAF 0.17) for every worker and every point, and checks that
// the drain still ends in gone with the same external effects as the run without a crash:
// the runner signalled gracefully once and never forced, unregistered, every webhook kind
// delivered, runwarden exiting 0 only after the runner did. A crash may repeat an
// idempotent request (a DELETE, a webhook), never lose one.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <csignal>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "actors/metrics_poller/metrics_poller_actor.hpp"
#include "actors/notifier/notifier_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "actors/unregistrar/unregistration_phase_actor.hpp"
#include "actors/warden/warden_actor.hpp"
#include "messages/child_ids.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr const char* hook = "http://203.0.113.5/hook";
constexpr const char* metrics = "http://127.0.0.1:9252/metrics";
constexpr std::int64_t runner_pid = 100;
constexpr std::string_view poller_id = "metrics_poller";

std::string page_with_jobs(int jobs) {
  return "# TYPE gitlab_runner_jobs gauge\n"
         "gitlab_runner_jobs{executor_stage=\"step_script\",runner=\"abc\",stage=\"\","
         "state=\"running\"} " +
         std::to_string(jobs) + "\n";
}

struct world {
  int jobs_running = 1;
  std::vector<http_request> requests;
  std::deque<std::pair<caf::actor, http_response>> held;  // answers not yet delivered
  std::vector<int> signals;
};

http_port_actor::behavior_type holding_http_port(http_port_actor::pointer self,
                                                 std::shared_ptr<world> script) {
  return {
      [](const host_lookup&) {},  // every host here is numeric or never looked up
      [=](const http_request& request) {
        script->requests.push_back(request);
        http_response answer{.id = request.id, .status_code = 204};
        if (request.url == metrics)
          answer = {
              .id = request.id, .status_code = 200, .body = page_with_jobs(script->jobs_running)};
        if (request.url == hook) answer.status_code = 200;
        script->held.emplace_back(caf::actor_cast<caf::actor>(self->current_sender()), answer);
      },
  };
}

process_port_actor::behavior_type recording_process_port(process_port_actor::pointer self,
                                                         std::shared_ptr<world> script) {
  return {
      [=](spawn_atom) {
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()),
                       runner_spawned{runner_pid});
      },
      [=](signal_atom, std::int64_t, std::int32_t signal) { script->signals.push_back(signal); },
      [](adopt_atom, std::int64_t, const process_identity&) {},
      [](release_atom, std::int64_t, bool) {},
  };
}

warden_exit_listener_actor::behavior_type exit_recorder(warden_exit_listener_actor::pointer,
                                                        std::shared_ptr<std::vector<int>> codes) {
  return {[=](const warden_exited& exited) { codes->push_back(exited.exit_code); },
          [](const os_signal_received&) {}};
}

enum class worker { none, notifier, poller, unregistration };

class crash_sweep_fixture : public testing::deterministic_fixture {
 public:
  crash_sweep_fixture() {
    const auto port = spawn(holding_http_port, world_);
    notifier_wiring notifier{.http_port = port,
                             .webhook = parse_webhook_target(hook).target,
                             .secret = "",
                             .timeout = 5s,
                             .limits = {.retry_initial = 1s, .retry_max = 30s, .attempts_max = 4},
                             .random_seed = 1,
                             .version = "9.9.9"};
    notifier_supervisor_ = spawn(
        supervisor_behavior,
        supervisor_wiring{
            worker_supervision,
            {{{std::string{child_id::notifier}}, [notifier](caf::local_actor* parent) {
                return caf::actor_cast<caf::actor>(parent->spawn(notifier_behavior, notifier));
              }}}});
    unregistrar_wiring unregistration{
        .http_port = port,
        .listener = {},
        .targets = {gitlab_runner{"build-1", "https://198.51.100.7", "glrt-TopSecret", "s_1"}},
        .limits = {.retry_initial = 1s, .retry_max = 8s, .attempts_max = 0},
        .timeout = 5s,
        .random_seed = 1};
    unregistration_supervisor_ = spawn(
        supervisor_behavior,
        supervisor_wiring{
            worker_supervision,
            {{{std::string{child_id::unregistration}}, [unregistration](caf::local_actor* parent) {
                return caf::actor_cast<caf::actor>(
                    parent->spawn(unregistration_phase_behavior, unregistration));
              }}}});
    run();
    warden_ = spawn(warden_behavior,
                    warden_wiring{.config = drain_config{.graceful_signal = SIGQUIT,
                                                         .forceful_signal = SIGTERM,
                                                         .restart = restart_settings{.jitter = 0.0},
                                                         .drain_timeout = 1h,
                                                         .kill_timeout = 5s,
                                                         .random_seed = 1,
                                                         .unregister = true},
                                  .process_port = spawn(recording_process_port, world_),
                                  .exit_listener = spawn(exit_recorder, exits_),
                                  .unregistrar = caf::actor_cast<unregistration_actor>(
                                      current(unregistration_supervisor_))});
    metrics_poller_wiring poller{
        .url = metrics, .interval = 5s, .timeout = 2s, .http_port = port, .listener = warden_};
    poller_supervisor_ =
        spawn(supervisor_behavior,
              supervisor_wiring{worker_supervision,
                                {{{std::string{poller_id}}, [poller](caf::local_actor* parent) {
                                    return caf::actor_cast<caf::actor>(
                                        parent->spawn(metrics_poller_behavior, poller));
                                  }}}});
    for (const auto& supervisor :
         {notifier_supervisor_, unregistration_supervisor_, poller_supervisor_})
      caf::anon_send(supervisor, caf::subscribe_atom::value, child_listener_actor{warden_});
    run();
  }

  // Delivers every held answer (and whatever follows from them), until none is held.
  void release() {
    while (!world_->held.empty()) {
      auto [to, answer] = world_->held.front();
      world_->held.pop_front();
      caf::anon_send(to, answer);
      run();
    }
  }

  void crash(worker which) {
    const supervisor_implementation* supervisor = which == worker::notifier ? &notifier_supervisor_
                                                  : which == worker::poller ? &poller_supervisor_
                                                  : which == worker::unregistration
                                                      ? &unregistration_supervisor_
                                                      : nullptr;
    if (!supervisor) return;
    const auto victim = current(*supervisor);
    REQUIRE(victim);
    caf::anon_send_exit(victim, caf::exit_reason::unhandled_exception);
    run();
    CHECK(current(*supervisor) != victim);  // restarted
    ++crashes_;
  }

  // The drain, in steps; before step `at` releases its answers, `which` crashes.
  void drain(worker which, int at) {
    const std::vector<std::function<void()>> steps{
        [&] { advance(5s); },  // a scrape: one job
        [&] {
          caf::anon_send(warden_, os_signal_received{SIGTERM});
          run();
        },                     // drain starts
        [&] { advance(5s); },  // still one job
        [&] {
          world_->jobs_running = 0;
          advance(5s);
        },     // the job is done
        [&] {  // the runner exits
          caf::anon_send(warden_, runner_exited{runner_pid, exit_status{}});
          run();
        },
        [&] { advance(1s); },  // unregistered, gone
    };
    for (int step = 0; step < static_cast<int>(steps.size()); ++step) {
      steps[static_cast<std::size_t>(step)]();
      if (step == at) crash(which);
      release();
      if (step < 4) CHECK(exits_->empty());  // never gone while the runner runs
    }
    for (int i = 0; i < 10 && exits_->empty(); ++i) {
      advance(1s);
      release();
    }
  }

  caf::actor current(const supervisor_implementation& supervisor) {
    return state_of<supervisor_state>(supervisor).handles.at(0);
  }

  std::size_t requests_to(const std::string& url, const std::string& method) const {
    std::size_t count = 0;
    for (const auto& request : world_->requests)
      count += request.url.starts_with(url) && request.method == method ? 1 : 0;
    return count;
  }

  std::set<std::string> webhook_events() const {
    std::set<std::string> events;
    for (const auto& request : world_->requests)
      if (request.url == hook) events.insert(nlohmann::json::parse(request.body).at("event"));
    return events;
  }

  std::shared_ptr<world> world_ = std::make_shared<world>();
  std::shared_ptr<std::vector<int>> exits_ = std::make_shared<std::vector<int>>();
  supervisor_implementation notifier_supervisor_, unregistration_supervisor_, poller_supervisor_;
  warden_implementation warden_;
  int crashes_ = 0;
};

}  // namespace

TEST_CASE("a crash of any worker at any point of a drain leaves the drain intact",
          "[supervisor][crash]") {
  const auto which =
      GENERATE(worker::none, worker::notifier, worker::poller, worker::unregistration);
  const int at = GENERATE(range(0, 6));
  crash_sweep_fixture fixture;
  fixture.drain(which, at);
  INFO("worker " << static_cast<int>(which) << " crashed at step " << at);
  CHECK(fixture.crashes_ == (which == worker::none ? 0 : 1));
  CHECK(*fixture.exits_ == std::vector<int>{0});
  CHECK(fixture.world_->signals == std::vector<int>{SIGQUIT});
  CHECK(fixture.requests_to("https://198.51.100.7/api/v4/runners", "DELETE") >= 1);
  CHECK(fixture.state_of<warden_state>(fixture.warden_).machine->state().status ==
        warden_status::gone);
  CHECK(fixture.webhook_events() == std::set<std::string>{"drain_started", "gone"});
}

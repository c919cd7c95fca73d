// The warden actor in virtual time, with a scripted process port in place of the OS. The
// tests check *when* things happen: the forceful signal exactly at the deadline and not a
// nanosecond before, SIGKILL exactly a kill timeout later, restarts exactly one backoff
// after an exit, and the exit once the restart budget is spent.
#include <catch2/catch.hpp>

#include <csignal>
#include <memory>

#include <fmt/format.h>

#include "actors/warden/warden_actor.hpp"
#include "messages/child_ids.hpp"
#include "src/assembly/run_journal.hpp"
#include "src/drain/drain_event_text.hpp"
#include "src/journal/journal_entry.hpp"
#include "src/journal/journal_location.hpp"
#include "src/journal/journal_reader.hpp"
#include "tests/actors/deterministic_fixture.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

struct sent_signal {
  caf::timespan at;
  std::int64_t pid;
  int signal_number;
};

// Pretends to be the OS: every spawn succeeds with the next pid, every signal is written down.
struct scripted_port_state {
  std::int64_t next_pid = 0;
  std::vector<caf::timespan> spawned_at;
  std::vector<sent_signal> signals;
  std::vector<std::int64_t> adopted;
  caf::actor_clock::time_point start;
  // The port's messages and the journal's appends, in the order they happened.
  std::shared_ptr<std::vector<std::string>> order;
};

process_port_actor::behavior_type scripted_port(
    process_port_actor::stateful_pointer<scripted_port_state> self, std::int64_t first_pid,
    std::shared_ptr<std::vector<std::string>> order) {
  self->state.start = self->clock().now();
  self->state.next_pid = first_pid;
  self->state.order = std::move(order);
  return {
      [=](spawn_atom) {
        auto& state = self->state;
        state.spawned_at.push_back(self->clock().now() - state.start);
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()),
                       runner_spawned{state.next_pid++});
      },
      [=](signal_atom, std::int64_t pid, std::int32_t signal_number) {
        self->state.signals.push_back(
            {self->clock().now() - self->state.start, pid, signal_number});
        self->state.order->push_back(fmt::format("signal {} {}", pid, signal_number));
      },
      [=](adopt_atom, std::int64_t pid, const process_identity&) {
        self->state.adopted.push_back(pid);
      },
      [=](release_atom, std::int64_t pid, bool go) {
        self->state.order->push_back(fmt::format("release {} {}", pid, go ? "go" : "stop"));
      },
  };
}

// The instance end (actors/instance_end) as the warden sees it: every request, answered done.
struct recording_end_state {
  std::vector<instance_end_request> asked;
};

// Answers every request with `answer`. (An argument also keeps CAF 0.17's spawn from its
// null init-function tuple, which UBSan reports for an actor spawned without one.)
instance_end_actor::behavior_type recording_end(
    instance_end_actor::stateful_pointer<recording_end_state> self, instance_end_outcome answer) {
  return {
      [=](end_instance_atom, const instance_end_request& request) {
        self->state.asked.push_back(request);
        return answer;
      },
  };
}

struct exit_listener_state {
  std::optional<warden_exited> exited;
  caf::timespan exited_at{};
  std::vector<int> signals_after_gone;  // what ends run_command's linger
};

warden_exit_listener_actor::behavior_type exit_listener(
    warden_exit_listener_actor::stateful_pointer<exit_listener_state> self,
    caf::actor_clock::time_point start) {
  return {
      [=](const warden_exited& exited) {
        self->state.exited = exited;
        self->state.exited_at = self->clock().now() - start;
      },
      [=](const os_signal_received& signal) {
        self->state.signals_after_gone.push_back(signal.signal_number);
      },
  };
}

// Records what a Watch client and the webhook notifier would see.
struct observer_state {
  std::vector<warden_snapshot> snapshots;
  std::vector<std::pair<notification_kind, std::vector<shutdown_callback>>> notifications;
  int refusals = 0;
};

// A status subscriber and a notifier in one.
using observer_actor = notifier_actor::extend_with<status_subscriber_actor>;

observer_actor::behavior_type recording_observer(
    observer_actor::stateful_pointer<observer_state> self, int /*unused*/) {
  return {
      [=](const warden_snapshot& snapshot) { self->state.snapshots.push_back(snapshot); },
      [=](notify_atom, notification_kind kind, const std::vector<shutdown_callback>& callbacks,
          const warden_snapshot&) { self->state.notifications.emplace_back(kind, callbacks); },
      [](flush_atom) { return caf::ok_atom::value; },
      [=](refused_atom) { ++self->state.refusals; },
  };
}

caf::actor untyped(const observer_actor& observer) { return caf::actor_cast<caf::actor>(observer); }

class warden_fixture : public testing::deterministic_fixture {
 public:
  void start(drain_config config) {
    observer_ = spawn(recording_observer, 0);
    port_only_start(std::move(config), observer_);
  }

  // As run_command does it: the notifier comes later, from its supervisor.
  void port_only_start(drain_config config, notifier_actor notifier = {}) {
    port_ = spawn(scripted_port, std::int64_t{100}, order_);
    listener_ = spawn(exit_listener, system().clock().now());
    warden_ = spawn(warden_behavior, warden_wiring{std::move(config), port_, listener_, notifier});
    run();
  }

  // As a runwarden restarted mid-drain does it: the journal's entries folded in.
  // Each append goes into order() as "journal EVENT".
  // With a retirement policy, and an uptime port when given (warden_wiring).
  void recovered_start(
      drain_config config, std::vector<journal_entry> entries,
      std::optional<retirement_policy> retirement = std::nullopt,
      std::function<std::optional<std::chrono::milliseconds>()> machine_uptime = {}) {
    port_ = spawn(scripted_port, std::int64_t{500}, order_);
    ending_ = spawn(recording_end, instance_end_outcome{true, "ended"});
    listener_ = spawn(exit_listener, system().clock().now());
    warden_ = spawn(warden_behavior,
                    warden_wiring{.config = std::move(config),
                                  .process_port = port_,
                                  .exit_listener = listener_,
                                  .journal =
                                      [order = order_](instant, const drain_event& event,
                                                       const std::vector<drain_effect>&) {
                                        order->push_back("journal " + to_string(event));
                                        return std::optional<std::string>{};
                                      },
                                  .recovered = std::move(entries),
                                  .retirement = std::move(retirement),
                                  .instance_end = ending_,
                                  .machine_uptime = std::move(machine_uptime)});
    run();
  }

  const std::vector<std::string>& order() const { return *order_; }

  // The trigger of the drain under way, as the warden's machine holds it.
  std::optional<trigger_source> observed_trigger() {
    return state_of<warden_state>(warden_).machine->state().drain_trigger;
  }

  std::vector<int>& signals_after_gone() {
    return state_of<exit_listener_state>(listener_).signals_after_gone;
  }

  warden_implementation& warden() { return warden_; }
  std::vector<instance_end_request>& ends_asked() {
    return state_of<recording_end_state>(ending_).asked;
  }
  observer_actor& observer() { return observer_; }
  observer_state& observed() { return state_of<observer_state>(observer_); }

  void send(auto message) {
    caf::anon_send(warden_, std::move(message));
    run();
  }

  scripted_port_state& port() {
    return typed_state_of<scripted_port_state, process_port_actor::base>(port_);
  }
  std::optional<warden_exited>& exited() { return state_of<exit_listener_state>(listener_).exited; }
  caf::timespan exited_at() { return state_of<exit_listener_state>(listener_).exited_at; }
  std::int64_t current_pid() { return port().next_pid - 1; }

 private:
  std::shared_ptr<std::vector<std::string>> order_ = std::make_shared<std::vector<std::string>>();
  process_port_actor port_;
  warden_exit_listener_actor listener_;
  observer_actor observer_;
  warden_implementation warden_;
  instance_end_actor ending_;
};

drain_config config_for_test() {
  return drain_config{.graceful_signal = SIGQUIT,
                      .forceful_signal = SIGTERM,
                      .restart = restart_settings{.jitter = 0.0},
                      .drain_timeout = 30s,
                      .kill_timeout = 5s,
                      .random_seed = 1,
                      // The hold of a drain right after the start has tests of its own.
                      .runner_start_grace = 0s};
}

}  // namespace

TEST_CASE_METHOD(warden_fixture, "escalation happens exactly at the deadline") {
  start(config_for_test());
  REQUIRE(port().spawned_at.size() == 1);
  advance(10s);
  send(os_signal_received{SIGTERM});
  REQUIRE(port().signals.size() == 1);
  CHECK(port().signals[0].signal_number == SIGQUIT);
  CHECK(port().signals[0].at == 10s);

  advance(30s - 1ns);
  CHECK(port().signals.size() == 1);  // never forceful before the deadline
  advance(1ns);
  REQUIRE(port().signals.size() == 2);
  CHECK(port().signals[1].signal_number == SIGTERM);
  CHECK(port().signals[1].at == 40s);

  advance(5s - 1ns);
  CHECK(port().signals.size() == 2);
  advance(1ns);
  REQUIRE(port().signals.size() == 3);
  CHECK(port().signals[2].signal_number == SIGKILL);
  CHECK(port().signals[2].at == 45s);

  send(runner_exited{current_pid(), exit_status{true, SIGKILL}});
  REQUIRE(exited());
  CHECK(exited()->exit_code == 137);
  CHECK(exited_at() == 45s);
}

TEST_CASE_METHOD(warden_fixture, "a runner that drains in time is never forced") {
  start(config_for_test());
  send(os_signal_received{SIGTERM});
  advance(29s);
  send(runner_exited{current_pid(), exit_status{false, 0}});
  REQUIRE(exited());
  CHECK(exited()->exit_code == 0);
  advance(1min);
  CHECK(port().signals.size() == 1);
}

TEST_CASE_METHOD(warden_fixture, "a second SIGINT forces at once, without waiting") {
  start(config_for_test());
  send(os_signal_received{SIGINT});
  send(os_signal_received{SIGINT});
  REQUIRE(port().signals.size() == 2);
  CHECK(port().signals[1].signal_number == SIGTERM);
  CHECK(port().signals[1].at == 0s);
}

TEST_CASE_METHOD(warden_fixture, "SIGHUP is forwarded to the runner") {
  start(config_for_test());
  send(os_signal_received{SIGHUP});
  REQUIRE(port().signals.size() == 1);
  CHECK(port().signals[0].signal_number == SIGHUP);
  CHECK(port().signals[0].pid == current_pid());
}

TEST_CASE_METHOD(warden_fixture, "restarts come exactly one backoff after each exit") {
  auto config = config_for_test();
  config.restart.backoff_initial = 1s;
  config.restart.backoff_max = 4s;
  config.restart.budget_restarts_max = 10;
  start(config);
  for (const auto delay : {1s, 2s, 4s, 4s}) {
    const auto spawns = port().spawned_at.size();
    const auto exit_time = elapsed();
    send(runner_exited{current_pid(), exit_status{false, 1}});
    advance(delay - 1ms);
    CHECK(port().spawned_at.size() == spawns);
    advance(1ms);
    REQUIRE(port().spawned_at.size() == spawns + 1);
    CHECK(port().spawned_at.back() - exit_time == delay);
  }
}

TEST_CASE_METHOD(warden_fixture, "past the restart budget the warden exits and says why") {
  auto config = config_for_test();
  config.restart.budget_restarts_max = 2;
  config.restart.budget_window = 1min;
  start(config);
  for (int restart = 0; restart < 2; ++restart) {
    send(runner_exited{current_pid(), exit_status{false, 2}});
    advance(10s);
  }
  CHECK(port().spawned_at.size() == 3);
  send(runner_exited{current_pid(), exit_status{false, 2}});
  REQUIRE(exited());
  CHECK(exited()->exit_code == 2);
  CHECK(exited()->reason.find("restart budget is spent: 2 restarts within 1m") !=
        std::string::npos);
  advance(10min);
  CHECK(port().spawned_at.size() == 3);
}

TEST_CASE_METHOD(warden_fixture, "subscribers see the status now and then every change") {
  start(config_for_test());
  caf::anon_send(warden(), subscribe_atom::value, status_subscriber_actor{observer()});
  run();
  send(shutdown_requested{.source = trigger_source::control_api, .reason = "scale in"});
  advance(1s);  // nothing changes while the jobs run: no snapshot
  send(runner_exited{current_pid(), exit_status{false, 0}});
  const auto& snapshots = observed().snapshots;
  REQUIRE(snapshots.size() == 3);
  CHECK(snapshots[0].status == warden_status::running);
  CHECK(snapshots[1].status == warden_status::shutting_down);
  CHECK(snapshots[1].phase == drain_phase::draining);
  CHECK(snapshots[1].reason == "scale in");
  CHECK(snapshots[1].drain_deadline == snapshots[1].drain_started_at.value() + 30s);
  CHECK(snapshots[2].status == warden_status::gone);
  CHECK(snapshots[2].exit_code == 0);
  CHECK(snapshots[0].version < snapshots[1].version);
  CHECK(snapshots[1].version < snapshots[2].version);
}

// Watch clients are outside input: the warden keeps status_subscribers_max of them and
// refuses the next one outright (it is told so and sent nothing), while those it keeps go on
// hearing every change; once one leaves, a new one is kept again.
TEST_CASE_METHOD(warden_fixture, "past status_subscribers_max a subscription is refused",
                 "[warden][bounds]") {
  start(config_for_test());
  std::vector<observer_actor> kept;
  for (std::size_t i = 0; i < status_subscribers_max; ++i) {
    kept.push_back(spawn(recording_observer, 0));
    caf::anon_send(warden(), subscribe_atom::value, status_subscriber_actor{kept.back()});
  }
  const auto refused = spawn(recording_observer, 0);
  caf::anon_send(warden(), subscribe_atom::value, status_subscriber_actor{refused});
  run();
  CHECK(state_of<observer_state>(refused).refusals == 1);
  CHECK(state_of<observer_state>(refused).snapshots.empty());

  send(shutdown_requested{.source = trigger_source::control_api, .reason = "scale in"});
  for (const auto& subscriber : {kept.front(), kept.back()}) {
    CHECK(state_of<observer_state>(subscriber).refusals == 0);
    REQUIRE(state_of<observer_state>(subscriber).snapshots.size() == 2);
    CHECK(state_of<observer_state>(subscriber).snapshots[1].status == warden_status::shutting_down);
  }
  CHECK(state_of<observer_state>(refused).snapshots.empty());

  caf::anon_send(warden(), unsubscribe_atom::value, status_subscriber_actor{kept.front()});
  caf::anon_send(warden(), subscribe_atom::value, status_subscriber_actor{refused});
  run();
  CHECK(state_of<observer_state>(refused).refusals == 1);
  REQUIRE(state_of<observer_state>(refused).snapshots.size() == 1);
  CHECK(state_of<observer_state>(refused).snapshots[0].status == warden_status::shutting_down);
}

TEST_CASE_METHOD(warden_fixture, "the notifier hears the drain start and, with callbacks, gone") {
  start(config_for_test());
  const shutdown_callback callback{"http://127.0.0.1:9/done", "POST", {}};
  send(shutdown_requested{.source = trigger_source::control_api, .callback = callback});
  send(runner_exited{current_pid(), exit_status{false, 0}});
  const auto& notifications = observed().notifications;
  REQUIRE(notifications.size() == 2);
  CHECK(notifications[0].first == notification_kind::drain_started);
  CHECK(notifications[0].second.empty());
  CHECK(notifications[1].first == notification_kind::gone);
  CHECK(notifications[1].second == std::vector{callback});
}

TEST_CASE_METHOD(warden_fixture, "a restarted notifier is sent what the old one left unsettled") {
  start(config_for_test());
  const shutdown_callback callback{"http://127.0.0.1:9/done", "POST", {}};
  send(shutdown_requested{.source = trigger_source::control_api, .callback = callback});
  send(runner_exited{current_pid(), exit_status{false, 0}});
  REQUIRE(observed().notifications.size() == 2);
  auto& unsettled = state_of<warden_state>(warden()).unsettled;
  REQUIRE(unsettled.size() == 2);
  // The old notifier settled drain_started only; it crashed while delivering gone.
  send(notification_settled{notification_kind::drain_started, unsettled[0].snapshot.version});
  CHECK(unsettled.size() == 1);
  // A settlement for an older notification of a kind leaves the newer one open.
  send(notification_settled{notification_kind::gone, unsettled[0].snapshot.version - 1});
  CHECK(unsettled.size() == 1);

  const auto successor = spawn(recording_observer, 0);
  const std::string id{child_id::notifier};
  send(child_incarnation{"metrics_poller", untyped(successor), 2});  // not the notifier
  send(child_incarnation{id, untyped(observer()), 1});  // the notifier it has: nothing to re-send
  CHECK(state_of<observer_state>(successor).notifications.empty());
  CHECK(observed().notifications.size() == 2);
  send(child_incarnation{id, untyped(successor), 2});
  const auto& resent = state_of<observer_state>(successor).notifications;
  REQUIRE(resent.size() == 1);
  CHECK(resent[0].first == notification_kind::gone);
  CHECK(resent[0].second == std::vector{callback});
  CHECK(state_of<warden_state>(warden()).notifier == successor);
}

TEST_CASE_METHOD(warden_fixture, "without a notifier yet, the first one gets what is open") {
  port_only_start(config_for_test());
  send(os_signal_received{SIGTERM});
  const auto notifier = spawn(recording_observer, 0);
  send(child_incarnation{std::string{child_id::notifier}, untyped(notifier), 1});
  const auto& notifications = state_of<observer_state>(notifier).notifications;
  REQUIRE(notifications.size() == 1);
  CHECK(notifications[0].first == notification_kind::drain_started);
}

namespace {

// A drain under way as the journal holds it: runner pid 100, SIGQUIT sent, then the runner's
// own report of its state.
std::vector<journal_entry> journal_of_a_drain(std::string runner_state) {
  return {{1, instant{0s}, warden_started{}, {}},
          {2, instant{1s}, runner_spawned{100}, {}},
          {3, instant{2s}, shutdown_requested{.source = trigger_source::signal_terminate}, {}},
          {4, instant{3s}, runner_load_observed{2u, std::move(runner_state)}, {}}};
}

}  // namespace

TEST_CASE_METHOD(warden_fixture,
                 "recovered, a runner that says it is in its graceful shutdown is not signalled "
                 "again") {
  recovered_start(config_for_test(), journal_of_a_drain("graceful-shutdown"));
  CHECK(port().adopted == std::vector<std::int64_t>{100});
  CHECK(port().signals.empty());
}

TEST_CASE_METHOD(warden_fixture,
                 "recovered, a runner that does not say so gets the graceful signal again") {
  const std::string says = GENERATE(as<std::string>{}, "", "running");
  CAPTURE(says);
  recovered_start(config_for_test(), journal_of_a_drain(says));
  CHECK(port().adopted == std::vector<std::int64_t>{100});
  REQUIRE(port().signals.size() == 1);
  CHECK(port().signals[0].pid == 100);
  CHECK(port().signals[0].signal_number == SIGQUIT);
}

// Found by the kill -9 trials (tests/e2e/kill9_trials.py, seeds 4 and 10): a runwarden
// killed while its drain held the graceful signal for the start grace came back with the
// grace timer never armed again, and waited for it for ever. Every timer the journal leaves
// armed is armed again for the time it was due.
TEST_CASE_METHOD(warden_fixture,
                 "recovered during the start grace, the held graceful signal goes out when it "
                 "ends") {
  auto config = config_for_test();
  config.runner_start_grace = 5s;
  const shutdown_requested sigterm{.source = trigger_source::signal_terminate};
  advance(2s);
  recovered_start(config, {{1, instant{0s}, warden_started{}, {}},
                           {2, instant{0s}, runner_spawned{100}, {}},
                           {3, instant{1s}, sigterm, {}}});
  CHECK(port().adopted == std::vector<std::int64_t>{100});
  CHECK(port().signals.empty());
  advance(2900ms);  // 4.9 s after the start: still held
  CHECK(port().signals.empty());
  advance(100ms);
  REQUIRE(port().signals.size() == 1);
  CHECK(port().signals[0].signal_number == SIGQUIT);
}

// Found by the simulation's two_runners invariant: a runwarden killed between the spawn and
// the journal's record of the pid came back to a journal still spawning, and spawned a
// second runner beside the first, which nobody would drain. A runner now waits at its start
// gate until the journal holds its pid, and a drain's signal reaches it only after that.
TEST_CASE_METHOD(warden_fixture,
                 "a spawned runner is released once its pid is journaled, before any signal") {
  recovered_start(
      config_for_test(),
      {{1, instant{0s}, warden_started{}, {}},
       {2, instant{0s}, shutdown_requested{.source = trigger_source::signal_terminate}, {}}});
  REQUIRE(port().spawned_at.size() == 1);  // the spawn the journal left unanswered
  CHECK(order() == std::vector<std::string>{"journal runner_spawned pid=500", "release 500 go",
                                            "signal 500 3"});
}

// The kill timeout was armed again at once after recovery: a runner given the forceful
// signal got SIGKILL as soon as runwarden came back, its kill timeout not yet over.
TEST_CASE_METHOD(warden_fixture,
                 "recovered after the forceful signal, SIGKILL waits for the "
                 "kill timeout") {
  advance(3s);
  recovered_start(config_for_test(), {{1, instant{0s}, warden_started{}, {}},
                                      {2, instant{0s}, runner_spawned{100}, {}},
                                      {3, instant{2s}, forceful_shutdown_requested{}, {}},
                                      {4, instant{2s}, runner_signal_delivered{100, SIGTERM}, {}}});
  CHECK(port().signals.empty());
  advance(3900ms);  // 6.9 s: the kill timeout (5 s) ends at 7 s
  CHECK(port().signals.empty());
  advance(100ms);
  REQUIRE(port().signals.size() == 1);
  CHECK(port().signals[0].signal_number == SIGKILL);
}

TEST_CASE_METHOD(warden_fixture, "once gone, runwarden's own signals go to the exit listener") {
  start(config_for_test());
  send(os_signal_received{SIGTERM});  // drains
  CHECK(signals_after_gone().empty());
  send(runner_exited{100, exit_status{false, 0}});
  REQUIRE(exited());
  send(os_signal_received{SIGTERM});
  send(os_signal_received{SIGHUP});
  CHECK(signals_after_gone() == std::vector<int>{SIGTERM, SIGHUP});
}

// A one-job runner's idle bound was lost when the warden restarted while it ran: the fold of
// the journal armed no timer, so a runner whose job was cancelled before pickup kept the
// machine for good. The recovered warden arms it again for what was left of it.
TEST_CASE_METHOD(warden_fixture, "recovered, the idle bound goes on for what was left of it") {
  retirement_policy policy;
  policy.after_exit = after_exit_action::retire;
  policy.idle_retire_after = 15min;
  advance(10min);
  recovered_start(
      config_for_test(),
      {{1, instant{0s}, warden_started{}, {}}, {2, instant{0s}, runner_spawned{100}, {}}}, policy);
  CHECK(port().adopted == std::vector<std::int64_t>{100});
  advance(4min + 59s);
  CHECK(port().signals.empty());
  advance(1s);  // 15 min after the runner came up, not 15 min after the restart
  REQUIRE(port().signals.size() == 1);
  CHECK(port().signals[0].signal_number == SIGQUIT);
  CHECK(observed_trigger() == trigger_source::retirement);
}

// Compaction stamped its entries with its own time, so a warden restarted after one counted
// the idle bound from the compaction, not from the runner's start: periodic compactions
// postponed it for good. The journal here is written and compacted as `runwarden run` does.
TEST_CASE_METHOD(warden_fixture, "recovered after a compaction, the idle bound keeps its time") {
  retirement_policy policy;
  policy.after_exit = after_exit_action::retire;
  policy.idle_retire_after = 15min;
  testing::journal_temp_dir dir;
  settings compacting;
  compacting.journal.state_directory = dir.path().string();
  compacting.journal.compact_bytes = 2048;
  std::vector<journal_entry> entries;
  {
    auto opened = run_journal::open(compacting, config_for_test(), {});
    REQUIRE(opened.journal);
    drain_machine live{config_for_test()};
    const auto record = [&](instant at, const drain_event& event) {
      REQUIRE_FALSE(opened.journal->append(at, event, live.step(event, at)));
    };
    record(instant{0s}, warden_started{});
    record(instant{0s}, runner_spawned{100});
    for (int i = 1; i <= 100; ++i) record(instant{i * 5s}, runner_load_observed{0u});
    const auto read = read_journal(journal_file(dir.path()));
    REQUIRE(read.contents);
    entries = read.contents->entries;
  }
  REQUIRE(entries.size() < 60);  // compacted
  advance(10min);
  recovered_start(config_for_test(), entries, policy);
  CHECK(port().adopted == std::vector<std::int64_t>{100});
  advance(4min + 59s);
  CHECK(port().signals.empty());
  advance(1s);  // 15 min after the runner came up, whatever the compactions since
  REQUIRE(port().signals.size() == 1);
  CHECK(port().signals[0].signal_number == SIGQUIT);
  CHECK(observed_trigger() == trigger_source::retirement);
}

// The uptime bound counted from each start of the warden: a machine whose warden restarted
// more often than the bound never recycled. It counts from the machine's boot, or without an
// uptime port from the journal's first start.
TEST_CASE_METHOD(warden_fixture,
                 "recovered, the uptime bound counts from the journal's first "
                 "start") {
  retirement_policy policy;
  policy.recycle.after_uptime = 6h;
  advance(5h);
  recovered_start(
      config_for_test(),
      {{1, instant{0s}, warden_started{}, {}}, {2, instant{0s}, runner_spawned{100}, {}}}, policy);
  advance(59min);
  CHECK(port().signals.empty());
  advance(1min);
  REQUIRE(port().signals.size() == 1);
  CHECK(observed_trigger() == trigger_source::retirement);
}

TEST_CASE_METHOD(warden_fixture, "recovered, the uptime bound counts from the machine's boot") {
  retirement_policy policy;
  policy.recycle.after_uptime = 6h;
  advance(2h);
  // Up for 4 h at this start: booted 2 h before the journal's first start.
  recovered_start(
      config_for_test(),
      {{1, instant{0s}, warden_started{}, {}}, {2, instant{0s}, runner_spawned{100}, {}}}, policy,
      [] { return std::optional<std::chrono::milliseconds>{4h}; });
  advance(1h + 59min);
  CHECK(port().signals.empty());
  advance(1min);  // 6 h after the boot
  REQUIRE(port().signals.size() == 1);
  CHECK(observed_trigger() == trigger_source::retirement);
}

// Instance retention: the lifecycle client's completion said the group retains the instance
// (Terminating:Retained). The lifecycle hooks actor once terminated it itself, with a retry
// loop of its own; now the instance end does, once gone, as for a retirement, and a warden
// restarted at gone from its journal asks again before it exits.
std::vector<journal_entry> journal_of_a_retained_drain() {
  const lifecycle_action action{
      .hook_name = "drain-runner", .heartbeat_timeout = 300s, .expires_at = instant{3600s}};
  return {{1, instant{0s}, warden_started{}, {}},
          {2, instant{0s}, runner_spawned{100}, {}},
          {3, instant{1s}, shutdown_requested{.source = trigger_source::cloud_lifecycle}, {}},
          {4, instant{1s}, lifecycle_action_pending{action}, {}},
          {5, instant{2s}, runner_exited{100, exit_status{}}, {}},
          {6, instant{3s}, lifecycle_action_completed{true, "no active action", true}, {}}};
}

// A completion under way waits for a lifecycle client (none is wired here).
drain_config config_awaiting_the_hook() {
  auto config = config_for_test();
  config.await_lifecycle_lookup = true;
  return config;
}

TEST_CASE_METHOD(warden_fixture,
                 "recovered at gone with a retained instance, the instance end terminates it") {
  advance(5s);
  recovered_start(config_awaiting_the_hook(), journal_of_a_retained_drain());
  REQUIRE(ends_asked().size() == 1);
  CHECK(ends_asked()[0].end == instance_end::terminate);
  CHECK(ends_asked()[0].retained);
  CHECK_FALSE(ends_asked()[0].decrement_desired_capacity);
  REQUIRE(exited());  // once the instance end answered
  CHECK(exited()->trigger == trigger_source::cloud_lifecycle);
}

TEST_CASE_METHOD(warden_fixture, "a completion that says retained ends the instance once gone") {
  auto entries = journal_of_a_retained_drain();
  entries.pop_back();
  advance(3s);
  recovered_start(config_awaiting_the_hook(), entries);
  CHECK(ends_asked().empty());
  send(lifecycle_action_completed{true, "no active action", true});
  REQUIRE(ends_asked().size() == 1);
  CHECK(ends_asked()[0].retained);
  REQUIRE(exited());
}

TEST_CASE_METHOD(warden_fixture, "a completion without retention ends no instance") {
  auto entries = journal_of_a_retained_drain();
  entries.pop_back();
  advance(3s);
  recovered_start(config_awaiting_the_hook(), entries);
  send(lifecycle_action_completed{true, "completed"});
  CHECK(ends_asked().empty());
  REQUIRE(exited());
}

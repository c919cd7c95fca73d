// The supervisor in virtual time with scripted children. Each child writes "start X" when
// it begins and "down X" when it ends into one shared log, so a test reads the exact order
// of stops and starts; children throw on command (crash_atom), quit normally on command,
// and one kind ignores exit messages. A listener records every child_incarnation it is told,
// a lookup probe asks (get_atom, id), and a watcher records how the supervisor itself ended.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/supervisor/supervisor_actor.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using lines = std::vector<std::string>;

using crash_atom = caf::atom_constant<caf::atom("crash")>;
using finish_atom = caf::atom_constant<caf::atom("finish")>;
using flush_stop_atom = caf::atom_constant<caf::atom("flushstop")>;

struct child_log {
  lines entries;
  lines take() { return std::exchange(entries, {}); }
};

// Quiet crashes: the default handler would print every injected exception.
void log_life(caf::event_based_actor* self, const std::shared_ptr<child_log>& log,
              const std::string& id) {
  log->entries.push_back("start " + id);
  self->attach_functor([log, id](const caf::error&) { log->entries.push_back("down " + id); });
  self->set_exception_handler([](caf::scheduled_actor*, std::exception_ptr&) {
    return caf::make_error(caf::sec::runtime_error, "crashed on command");
  });
}

caf::behavior test_child(caf::event_based_actor* self, std::shared_ptr<child_log> log,
                         std::string id) {
  log_life(self, log, id);
  return {
      [](crash_atom) { throw std::runtime_error("crash on command"); },
      [=](finish_atom) { self->quit(); },
      [=](flush_stop_atom) {
        log->entries.push_back("flush " + id);
        self->quit();
      },
  };
}

// Traps exit messages and carries on, as a child stuck in a long call would.
caf::behavior stubborn_child(caf::event_based_actor* self, std::shared_ptr<child_log> log,
                             std::string id) {
  log_life(self, log, id);
  self->set_exit_handler([=](const caf::exit_msg&) { log->entries.push_back("ignore " + id); });
  return {[](crash_atom) { throw std::runtime_error("crash on command"); }};
}

struct listener_state {
  std::vector<child_incarnation> heard;
};

child_listener_actor::behavior_type listener(
    child_listener_actor::stateful_pointer<listener_state> self, supervisor_actor supervisor) {
  self->send(supervisor, caf::subscribe_atom::value, child_listener_actor{self});
  return {[=](const child_incarnation& child) { self->state.heard.push_back(child); }};
}

struct lookup_state {
  std::optional<child_incarnation> answer;
  std::string error;
};

caf::behavior lookup_probe(caf::stateful_actor<lookup_state>* self, supervisor_actor supervisor,
                           std::string id) {
  self->request(supervisor, caf::infinite, caf::get_atom::value, id)
      .then(
          [=](const child_incarnation& child) { self->state.answer = child; },
          [=](const caf::error& error) { self->state.error = self->home_system().render(error); });
  return {[](caf::get_atom) {}};
}

struct watcher_state {
  std::optional<caf::error> reason;
  std::string text;
};

caf::behavior watcher(caf::stateful_actor<watcher_state>* self, supervisor_actor watched) {
  self->monitor(watched);
  self->set_down_handler([=](const caf::down_msg& down) {
    self->state.reason = down.reason;
    self->state.text = self->home_system().render(down.reason);
  });
  return {[](caf::get_atom) {}};
}

class supervisor_fixture : public testing::deterministic_fixture {
 public:
  using child_behavior = caf::behavior (*)(caf::event_based_actor*, std::shared_ptr<child_log>,
                                           std::string);

  supervised_child child(const std::string& id, restart_type type = restart_type::permanent,
                         duration timeout = 1s, child_behavior behavior = test_child) {
    return {{id, type, timeout}, [log = log_, id, behavior](caf::local_actor* supervisor) {
              return supervisor->spawn(behavior, log, id);
            }};
  }

  void start(supervisor_flags flags, std::vector<supervised_child> children) {
    supervisor_ = spawn(supervisor_behavior, supervisor_wiring{flags, std::move(children)});
    watcher_ = spawn(watcher, supervisor_);
    listener_ = spawn(listener, supervisor_);
    run();
  }

  caf::actor handle(const std::string& id) {
    auto& state = state_of<supervisor_state>(supervisor_);
    for (std::size_t child = 0; child < state.children.size(); ++child)
      if (state.children[child].spec.id == id) return state.handles[child];
    FAIL("no child " << id);
    return {};
  }

  void tell(const std::string& id, auto message) {
    REQUIRE(handle(id));
    caf::anon_send(handle(id), message);
    run();
  }

  lookup_state look_up(const std::string& id) {
    auto probe = spawn(lookup_probe, supervisor_, id);
    run();
    return state_of<lookup_state>(probe);
  }

  lines log() { return log_->take(); }
  const std::vector<child_incarnation>& heard() {
    return state_of<listener_state>(listener_).heard;
  }
  watcher_state& supervisor_end() { return state_of<watcher_state>(watcher_); }
  const supervisor_implementation& supervisor() const { return supervisor_; }

 private:
  std::shared_ptr<child_log> log_ = std::make_shared<child_log>();
  supervisor_implementation supervisor_;
  caf::actor watcher_;
  child_listener_actor listener_;
};

const supervisor_flags generous{restart_strategy::one_for_one, 5, 10s};

supervisor_flags with(restart_strategy strategy) {
  auto flags = generous;
  flags.strategy = strategy;
  return flags;
}

}  // namespace

TEST_CASE_METHOD(supervisor_fixture, "one_for_one restarts the crashed child alone, and says so",
                 "[supervisor]") {
  start(with(restart_strategy::one_for_one), {child("a"), child("b"), child("c")});
  CHECK(log() == lines{"start a", "start b", "start c"});
  const auto a = handle("a");
  const auto old_b = handle("b");
  tell("b", crash_atom::value);
  CHECK(log() == lines{"down b", "start b"});
  const auto new_b = handle("b");
  CHECK(new_b != old_b);
  CHECK(handle("a") == a);
  // The listener heard every first start, then the new b; the old b's exit_msg, trapped,
  // was not taken for a request to stop.
  REQUIRE(heard().size() == 4);
  CHECK(heard()[1].handle == old_b);
  CHECK(heard()[3].id == "b");
  CHECK(heard()[3].handle == new_b);
  CHECK(heard()[3].number == 2);
  const auto answer = look_up("b");
  REQUIRE(answer.answer);
  CHECK(answer.answer->handle == new_b);
  CHECK(answer.answer->number == 2);
  CHECK_FALSE(supervisor_end().reason);
}

TEST_CASE_METHOD(supervisor_fixture, "one_for_all stops siblings in reverse order, starts all",
                 "[supervisor]") {
  start(with(restart_strategy::one_for_all), {child("a"), child("b"), child("c")});
  log();
  tell("b", crash_atom::value);
  CHECK(log() == lines{"down b", "down c", "down a", "start a", "start b", "start c"});
  REQUIRE(heard().size() == 6);
  CHECK(heard()[3].id == "a");
  CHECK(heard()[3].number == 2);
}

TEST_CASE_METHOD(supervisor_fixture, "rest_for_one restarts the crashed child and later ones",
                 "[supervisor]") {
  start(with(restart_strategy::rest_for_one), {child("a"), child("b"), child("c")});
  log();
  const auto a = handle("a");
  tell("b", crash_atom::value);
  CHECK(log() == lines{"down b", "down c", "start b", "start c"});
  CHECK(handle("a") == a);
}

TEST_CASE_METHOD(supervisor_fixture, "restart types: transient and temporary stay down",
                 "[supervisor]") {
  start(with(restart_strategy::one_for_one),
        {child("p"), child("t", restart_type::transient), child("x", restart_type::temporary)});
  log();
  tell("t", finish_atom::value);
  tell("x", crash_atom::value);
  tell("p", finish_atom::value);
  CHECK(log() == lines{"down t", "down x", "down p", "start p"});
  const auto transient = look_up("t");
  REQUIRE(transient.answer);
  CHECK_FALSE(transient.answer->handle);
  CHECK(transient.answer->number == 1);
  CHECK(look_up("nobody").error ==
        R"(system_error(runtime_error, ("the supervisor has no child \"nobody\"")))");
}

TEST_CASE_METHOD(supervisor_fixture, "intensity exhausted: children stop, the supervisor fails",
                 "[supervisor]") {
  start({restart_strategy::one_for_one, 1, 5s}, {child("a"), child("b"), child("c")});
  log();
  tell("b", crash_atom::value);
  advance(5s);  // the first restart has left the window
  tell("b", crash_atom::value);
  CHECK(log() == lines{"down b", "start b", "down b", "start b"});
  CHECK_FALSE(supervisor_end().reason);
  tell("b", crash_atom::value);
  CHECK(log() == lines{"down b", "down c", "down a"});
  REQUIRE(supervisor_end().reason);
  CHECK(*supervisor_end().reason != caf::exit_reason::normal);
  CHECK(*supervisor_end().reason != caf::exit_reason::user_shutdown);
  CHECK(supervisor_end().text.find("supervisor gave up: child \\\"b\\\" went down once more "
                                   "than the 1 restart(s) allowed within 5s") != std::string::npos);
}

TEST_CASE_METHOD(supervisor_fixture, "a child ignoring its stop is killed at its timeout",
                 "[supervisor]") {
  start(with(restart_strategy::one_for_all),
        {child("s", restart_type::permanent, 3s, stubborn_child), child("b")});
  log();
  tell("b", crash_atom::value);
  CHECK(log() == lines{"down b", "ignore s"});
  advance(3s - 1ns);
  CHECK(log().empty());  // nothing restarts while s still runs
  advance(1ns);
  CHECK(log() == lines{"down s", "start s", "start b"});
  CHECK(elapsed() == 3s);
}

TEST_CASE_METHOD(supervisor_fixture, "a zero shutdown timeout kills at once", "[supervisor]") {
  start(with(restart_strategy::one_for_all),
        {child("s", restart_type::permanent, 0s, stubborn_child), child("b")});
  log();
  tell("b", crash_atom::value);
  CHECK(log() == lines{"down b", "down s", "start s", "start b"});
}

TEST_CASE_METHOD(supervisor_fixture, "a child with a stop message gets it and flushes",
                 "[supervisor]") {
  auto flushing = child("f");
  flushing.stop_message = caf::make_message(flush_stop_atom::value);
  start(with(restart_strategy::one_for_all), {flushing, child("b")});
  log();
  tell("b", crash_atom::value);
  CHECK(log() == lines{"down b", "flush f", "down f", "start f", "start b"});
  CHECK_FALSE(supervisor_end().reason);
}

TEST_CASE_METHOD(supervisor_fixture, "an exit request stops children in reverse order",
                 "[supervisor]") {
  start(with(restart_strategy::one_for_one), {child("a"), child("b"), child("c")});
  log();
  caf::anon_send_exit(supervisor(), caf::exit_reason::user_shutdown);
  run();
  CHECK(log() == lines{"down c", "down b", "down a"});
  REQUIRE(supervisor_end().reason);
  CHECK(*supervisor_end().reason == caf::exit_reason::user_shutdown);
}

TEST_CASE_METHOD(supervisor_fixture, "a child that cannot start counts against the intensity",
                 "[supervisor]") {
  supervised_child broken{{"broken"}, [](caf::local_actor*) -> caf::actor {
                            throw std::runtime_error("no such file");
                          }};
  start({restart_strategy::one_for_one, 2, 5s}, {child("a"), broken});
  CHECK(log() == lines{"start a", "down a"});
  CHECK(supervisor_end().text.find("\\\"broken\\\"") != std::string::npos);
}

TEST_CASE_METHOD(supervisor_fixture, "a killed supervisor takes its children with it",
                 "[supervisor]") {
  start(with(restart_strategy::one_for_one), {child("a"), child("b")});
  log();
  caf::anon_send_exit(supervisor(), caf::exit_reason::kill);
  run();
  auto ended = log();
  std::sort(ended.begin(), ended.end());
  CHECK(ended == lines{"down a", "down b"});
  REQUIRE(supervisor_end().reason);
  CHECK(*supervisor_end().reason == caf::exit_reason::kill);
}

// The supervisor's decisions without CAF. Method: three children a, b, c started in order;
// b goes down; the test records what the machine asks for at once, then reports every
// stopped sibling as down (in the order the stops were asked) and records what it asks for
// next. One table row per strategy x restart type x exit kind pins both lists; further
// cases cover siblings' own restart types, overlapping restarts, the sliding intensity
// window, giving up and a requested stop.
#include "src/supervision/supervision_machine.hpp"

#include <catch2/catch.hpp>

#include <sstream>

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr instant t0{0};

std::vector<child_spec> three_children(restart_type b_type, restart_type siblings_type) {
  return {{"a", siblings_type, 1s}, {"b", b_type, 2s}, {"c", siblings_type, 3s}};
}

constexpr const char* names[] = {"a", "b", "c", "d"};

std::string text_of(const std::vector<supervision_effect>& effects) {
  std::ostringstream out;
  for (const auto& effect : effects) {
    if (!out.str().empty()) out << ' ';
    if (const auto* start = std::get_if<start_child>(&effect))
      out << "start " << names[start->child];
    if (const auto* stop = std::get_if<stop_child>(&effect)) out << "stop " << names[stop->child];
    if (const auto* quit = std::get_if<quit_supervisor>(&effect))
      out << (quit->gave_up ? "give up" : "quit");
  }
  return out.str();
}

// Reports every child the effects stop as gone (normally, as a stop ends) and returns what
// the machine asks for after the last of them.
std::vector<supervision_effect> complete_stops(supervision_machine& machine,
                                               const std::vector<supervision_effect>& effects,
                                               instant now) {
  std::vector<supervision_effect> after;
  for (const auto& effect : effects)
    if (const auto* stop = std::get_if<stop_child>(&effect)) {
      CHECK(after.empty());  // nothing starts while a stop is outstanding
      after = machine.step(child_went_down{stop->child, child_exit::normal}, now);
    }
  return after;
}

supervision_machine started(supervisor_flags flags, std::vector<child_spec> children) {
  supervision_machine machine{flags, std::move(children)};
  std::string every_start;
  for (std::size_t child = 0; child < machine.children().size(); ++child)
    every_start += std::string{child == 0 ? "" : " "} + "start " + names[child];
  REQUIRE(text_of(machine.step(supervisor_started{}, t0)) == every_start);
  return machine;
}

struct exit_row {
  restart_strategy strategy;
  restart_type type;
  child_exit exit;
  std::string at_once;
  std::string after_stops;
  child_status b_after;
};

}  // namespace

TEST_CASE("every strategy x restart type x exit kind", "[supervision]") {
  using enum restart_strategy;
  using enum restart_type;
  using enum child_exit;
  const auto up = child_status::running;
  const auto ended = child_status::ended;
  const exit_row row = GENERATE_COPY(values<exit_row>({
      {one_for_one, permanent, normal, "start b", "", up},
      {one_for_one, permanent, abnormal, "start b", "", up},
      {one_for_one, transient, normal, "", "", ended},
      {one_for_one, transient, abnormal, "start b", "", up},
      {one_for_one, temporary, normal, "", "", ended},
      {one_for_one, temporary, abnormal, "", "", ended},
      {one_for_all, permanent, normal, "stop c stop a", "start a start b start c", up},
      {one_for_all, permanent, abnormal, "stop c stop a", "start a start b start c", up},
      {one_for_all, transient, normal, "", "", ended},
      {one_for_all, transient, abnormal, "stop c stop a", "start a start b start c", up},
      {one_for_all, temporary, normal, "", "", ended},
      {one_for_all, temporary, abnormal, "", "", ended},
      {rest_for_one, permanent, normal, "stop c", "start b start c", up},
      {rest_for_one, permanent, abnormal, "stop c", "start b start c", up},
      {rest_for_one, transient, normal, "", "", ended},
      {rest_for_one, transient, abnormal, "stop c", "start b start c", up},
      {rest_for_one, temporary, normal, "", "", ended},
      {rest_for_one, temporary, abnormal, "", "", ended},
  }));
  CAPTURE(to_string(row.strategy), to_string(row.type), row.exit == abnormal);
  auto machine = started({row.strategy, 5, 10s}, three_children(row.type, permanent));
  const auto at_once = machine.step(child_went_down{1, row.exit}, t0 + 1s);
  CHECK(text_of(at_once) == row.at_once);
  CHECK(text_of(complete_stops(machine, at_once, t0 + 1s)) == row.after_stops);
  CHECK(machine.status_of(0) == up);
  CHECK(machine.status_of(1) == row.b_after);
  CHECK(machine.status_of(2) == up);
  CHECK(machine.restarts_in_window() == (row.b_after == up ? 1 : 0));
}

TEST_CASE("a stop carries the child's own shutdown timeout", "[supervision]") {
  auto machine = started({restart_strategy::one_for_all, 5, 10s},
                         three_children(restart_type::permanent, restart_type::permanent));
  const auto effects = machine.step(child_went_down{1, child_exit::abnormal}, t0);
  REQUIRE(effects.size() == 2);
  CHECK(std::get<stop_child>(effects[0]) == stop_child{2, 3s});
  CHECK(std::get<stop_child>(effects[1]) == stop_child{0, 1s});
}

TEST_CASE("siblings restart by their own type: temporary never, ended transient again",
          "[supervision]") {
  auto machine = started({restart_strategy::one_for_all, 5, 10s}, {{"a", restart_type::temporary},
                                                                   {"b", restart_type::permanent},
                                                                   {"c", restart_type::transient}});
  CHECK(machine.step(child_went_down{2, child_exit::normal}, t0).empty());
  CHECK(machine.status_of(2) == child_status::ended);
  const auto at_once = machine.step(child_went_down{1, child_exit::abnormal}, t0);
  CHECK(text_of(at_once) == "stop a");
  // Like OTP, the group restart brings back c, which had ended normally, but not a.
  CHECK(text_of(complete_stops(machine, at_once, t0)) == "start b start c");
  CHECK(machine.status_of(0) == child_status::ended);
}

TEST_CASE("a crash during a group restart joins it, starts wait for every stop", "[supervision]") {
  auto machine = started({restart_strategy::rest_for_one, 5, 10s}, {{"a"}, {"b"}, {"c"}, {"d"}});
  CHECK(text_of(machine.step(child_went_down{2, child_exit::abnormal}, t0)) == "stop d");
  // a crashes while d is still stopping: b goes too, and all wait for d.
  CHECK(text_of(machine.step(child_went_down{0, child_exit::abnormal}, t0)) == "stop b");
  CHECK(text_of(machine.step(child_went_down{3, child_exit::normal}, t0)).empty());
  CHECK(text_of(machine.step(child_went_down{1, child_exit::normal}, t0)) ==
        "start a start b start c start d");
  CHECK(machine.restarts_in_window() == 2);
}

TEST_CASE("intensity: one restart more than allowed within the window gives up", "[supervision]") {
  auto machine = started({restart_strategy::one_for_one, 2, 10s},
                         three_children(restart_type::permanent, restart_type::permanent));
  CHECK(text_of(machine.step(child_went_down{1, child_exit::abnormal}, t0)) == "start b");
  CHECK(text_of(machine.step(child_went_down{0, child_exit::abnormal}, t0 + 4s)) == "start a");
  // The third within 10 s: every child stops in reverse order, then the supervisor fails.
  const auto effects = machine.step(child_went_down{1, child_exit::abnormal}, t0 + 9s);
  CHECK(text_of(effects) == "stop c stop a");
  CHECK(machine.status_of(1) == child_status::ended);
  CHECK(text_of(machine.step(child_went_down{2, child_exit::normal}, t0 + 9s)).empty());
  const auto last = machine.step(child_went_down{0, child_exit::abnormal}, t0 + 9s);
  REQUIRE(last.size() == 1);
  const auto quit = std::get<quit_supervisor>(last[0]);
  CHECK(quit.gave_up);
  CHECK(quit.reason == "child \"b\" went down once more than the 2 restart(s) allowed within 10s");
  CHECK(machine.done());
  CHECK(machine.step(supervisor_stop_requested{}, t0 + 9s).empty());
}

TEST_CASE("intensity: the window slides, a restart exactly one window old no longer counts",
          "[supervision]") {
  auto machine = started({restart_strategy::one_for_one, 2, 10s},
                         three_children(restart_type::permanent, restart_type::permanent));
  for (const auto at : {0s, 5s, 10s, 15s, 20s}) {
    CAPTURE(at.count());
    CHECK(text_of(machine.step(child_went_down{1, child_exit::abnormal}, t0 + at)) == "start b");
    CHECK(machine.restarts_in_window() == (at == 0s ? 1 : 2));
  }
  CHECK(text_of(machine.step(child_went_down{1, child_exit::abnormal}, t0 + 24s)) ==
        "stop c stop a");
}

TEST_CASE("intensity: exits that restart nothing do not count", "[supervision]") {
  auto machine = started({restart_strategy::one_for_one, 0, 10s},
                         {{"a", restart_type::transient}, {"b", restart_type::temporary}});
  CHECK(machine.step(child_went_down{0, child_exit::normal}, t0).empty());
  CHECK(machine.step(child_went_down{1, child_exit::abnormal}, t0).empty());
  CHECK(machine.restarts_in_window() == 0);
  CHECK_FALSE(machine.done());
}

TEST_CASE("intensity zero gives up at the first restart, a lone child quits at once",
          "[supervision]") {
  auto machine = started({restart_strategy::one_for_one, 0, 10s}, {{"a"}});
  const auto effects = machine.step(child_went_down{0, child_exit::abnormal}, t0);
  REQUIRE(effects.size() == 1);
  CHECK(std::get<quit_supervisor>(effects[0]).gave_up);
}

TEST_CASE("a requested stop stops every child in reverse order and restarts none",
          "[supervision]") {
  auto machine = started({restart_strategy::one_for_all, 5, 10s},
                         three_children(restart_type::permanent, restart_type::permanent));
  CHECK(text_of(machine.step(supervisor_stop_requested{}, t0)) == "stop c stop b stop a");
  CHECK(machine.step(supervisor_stop_requested{}, t0).empty());
  CHECK(text_of(machine.step(child_went_down{1, child_exit::abnormal}, t0)).empty());
  CHECK(text_of(machine.step(child_went_down{2, child_exit::normal}, t0)).empty());
  const auto last = machine.step(child_went_down{0, child_exit::normal}, t0);
  CHECK(text_of(last) == "quit");
  CHECK_FALSE(std::get<quit_supervisor>(last[0]).gave_up);
  CHECK(machine.restarts_in_window() == 0);
}

TEST_CASE("a stop requested during a group restart cancels the restart", "[supervision]") {
  auto machine = started({restart_strategy::one_for_all, 5, 10s},
                         three_children(restart_type::permanent, restart_type::permanent));
  CHECK(text_of(machine.step(child_went_down{0, child_exit::abnormal}, t0)) == "stop c stop b");
  CHECK(machine.step(supervisor_stop_requested{}, t0).empty());
  CHECK(machine.status_of(0) == child_status::ended);
  CHECK(machine.step(child_went_down{2, child_exit::normal}, t0).empty());
  CHECK(text_of(machine.step(child_went_down{1, child_exit::normal}, t0)) == "quit");
}

TEST_CASE("supervisor specs are checked field by field", "[supervision]") {
  const supervisor_flags flags;
  CHECK_FALSE(check_supervisor_spec(flags, {{"a"}, {"b"}}));
  CHECK_FALSE(check_supervisor_spec(flags, {}));
  CHECK(check_supervisor_spec({restart_strategy::one_for_one, 1, 0s}, {{"a"}}) ==
        "supervisor restart_window must be positive");
  CHECK(check_supervisor_spec(flags, {{"a"}, {""}}) == "child 2 has an empty id");
  CHECK(check_supervisor_spec(flags, {{"a"}, {"b"}, {"a"}}) == "child 3: id \"a\" is used twice");
  CHECK(check_supervisor_spec(flags, {{"a", restart_type::permanent, -1s}}) ==
        "child \"a\": shutdown_timeout must not be negative");
  CHECK(check_supervisor_spec(flags, std::vector<child_spec>(65, child_spec{"x"})) ==
        "a supervisor takes at most 64 children, got 65");
  CHECK(to_string(restart_strategy::rest_for_one) == "rest_for_one");
}

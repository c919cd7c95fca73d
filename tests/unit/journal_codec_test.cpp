// The journal codec: every drain_event alternative, the drain config and whole records go
// through protobuf and back unchanged; payloads that are not valid version 1 records are
// refused with a journal_format_error naming what is wrong.
#include <catch2/catch.hpp>

#include "src/drain/drain_event_text.hpp"
#include "src/journal/journal_codec.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using testing::every_event_kind;
using testing::journal_test_config;

}  // namespace

TEST_CASE("every drain event survives the record round trip", "[journal][codec]") {
  const auto events = every_event_kind();
  REQUIRE(events.size() >= std::variant_size_v<drain_event>);
  std::uint64_t sequence = 0;
  for (const auto& event : events) {
    CAPTURE(to_string(event));
    const journal_entry entry{.sequence = ++sequence,
                              .at = instant{-3 + static_cast<std::int64_t>(sequence)},
                              .event = event,
                              .effects = {"spawn_runner", "", "report x\ny"}};
    const auto decoded = decode_record(encode_record(entry));
    REQUIRE(std::holds_alternative<journal_entry>(decoded));
    const auto& back = std::get<journal_entry>(decoded);
    CHECK(back.sequence == entry.sequence);
    CHECK(back.at == entry.at);
    CHECK(back.event == entry.event);
    CHECK(back.effects == entry.effects);
  }
}

// Every value the vocabulary names (its to_string knows it) must survive the journal: a
// spot interruption once went to the wire as UNSPECIFIED, and recovery then cut the journal
// at that record, losing the drain.
TEST_CASE("every trigger source and timer kind survives the round trip", "[journal][codec]") {
  std::size_t triggers = 0, timers = 0;
  for (unsigned value = 0; value < 256; ++value) {
    CAPTURE(value);
    const auto source = static_cast<trigger_source>(value);
    if (to_string(source) != "unknown") {
      ++triggers;
      const drain_event event = shutdown_requested{.source = source, .reason = "r"};
      CHECK(decode_event(encode_event(event)) == event);
      const drain_event forceful = forceful_shutdown_requested{.source = source};
      CHECK(decode_event(encode_event(forceful)) == forceful);
    }
    const auto kind = static_cast<timer_kind>(value);
    if (to_string(kind) != "unknown") {
      ++timers;
      const drain_event event = timer_fired{kind, 7};
      CHECK(decode_event(encode_event(event)) == event);
    }
  }
  CHECK(triggers == 19);
  CHECK(timers == 8);
}

TEST_CASE("the sample events cover every alternative", "[journal][codec]") {
  std::vector<bool> seen(std::variant_size_v<drain_event>, false);
  for (const auto& event : every_event_kind()) seen[event.index()] = true;
  CHECK(std::count(seen.begin(), seen.end(), false) == 0);
}

TEST_CASE("absent and empty optional fields stay apart", "[journal][codec]") {
  const drain_event without = shutdown_requested{};
  const drain_event with_empty =
      shutdown_requested{.deadline = instant{0}, .callback = shutdown_callback{}};
  CHECK(decode_event(encode_event(without)) == without);
  CHECK(decode_event(encode_event(with_empty)) == with_empty);
  CHECK_FALSE(decode_event(encode_event(with_empty)) == without);
}

// A journal written before retention was known has no retained_when_abandoned: its hook
// keeps the drain deadline it had then.
TEST_CASE("an older lifecycle record reads as not retained", "[journal][codec]") {
  journal::v1::Event older;
  auto* pending = older.mutable_lifecycle_action_pending();
  pending->set_hook_name("drain");
  pending->set_heartbeat_timeout_ns(std::chrono::nanoseconds{std::chrono::seconds{300}}.count());
  pending->set_expires_at_ns(std::chrono::nanoseconds{std::chrono::seconds{30000}}.count());
  const auto event = decode_event(older);
  REQUIRE(std::holds_alternative<lifecycle_action_pending>(event));
  CHECK_FALSE(std::get<lifecycle_action_pending>(event).action.retained_when_abandoned);
  CHECK(to_string(event) ==
        "lifecycle_action_pending hook=drain heartbeat=300000000000ns "
        "expires=30000000000000ns");
}

TEST_CASE("the header keeps every drain config field", "[journal][codec]") {
  auto config = journal_test_config();
  SECTION("with a drain timeout") {}
  SECTION("without one, transient") {
    config.drain_timeout.reset();
    config.restart.type = restart_type::transient;
  }
  SECTION("temporary") { config.restart.type = restart_type::temporary; }
  SECTION("unregistering") { config.unregister = true; }
  SECTION("unregistering first") { config.unregister_before_stop = true; }
  SECTION("unregistering alongside a short deadline") {
    config.unregister = true;
    config.unregister_alongside_below = std::chrono::seconds{60};
  }
  const journal_header header{
      .created_by = "runwarden 9.9", .created_unix_ns = -7, .config = config};
  const auto decoded = decode_record(encode_record(header));
  REQUIRE(std::holds_alternative<journal_header>(decoded));
  const auto& back = std::get<journal_header>(decoded);
  CHECK(back.created_by == header.created_by);
  CHECK(back.created_unix_ns == header.created_unix_ns);
  CHECK(back.config == config);
}

TEST_CASE("payloads that are not version 1 records are refused", "[journal][codec]") {
  SECTION("not protobuf") {
    CHECK_THROWS_AS(decode_record(std::string{"\xff\xff\xff", 3}), journal_format_error);
  }
  SECTION("an empty record") {
    CHECK_THROWS_WITH(decode_record(""), Catch::Contains("no known kind"));
  }
  SECTION("an entry without its event") {
    journal::v1::Record record;
    record.mutable_entry()->set_sequence(1);
    CHECK_THROWS_WITH(decode_record(record.SerializeAsString()), Catch::Contains("without event"));
  }
  SECTION("an enum value from a newer writer") {
    journal::v1::Event event;
    event.mutable_timer_fired()->set_kind(static_cast<journal::v1::TimerKind>(9));
    CHECK_THROWS_WITH(decode_event(event), Catch::Contains("unknown timer kind value 9"));
  }
  SECTION("an unspecified trigger") {
    journal::v1::Event event;
    event.mutable_shutdown_requested();
    CHECK_THROWS_WITH(decode_event(event), Catch::Contains("unknown trigger value 0"));
  }
}

// The keeper's protocol (messages/keeper_protocol.hpp), its line splitter and the state it
// carries across an upgrade: every message round-trips, every malformed one is refused, and
// nothing is written past a buffer.
#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "messages/keeper_protocol.hpp"
#include "src/keeper/keeper_resume.hpp"
#include "src/keeper/line_splitter.hpp"

namespace protocol = runwarden::keeper_protocol;

namespace {

std::array<char, protocol::message_bytes_max> buffer{};

std::string_view rest_of(std::size_t length, std::string_view kind) {
  const auto [got_kind, rest] = protocol::split({buffer.data(), length});
  CHECK(got_kind == kind);
  return rest;
}

}  // namespace

TEST_CASE("keeper protocol: each message round-trips", "[keeper]") {
  auto hello = protocol::decode_hello(rest_of(protocol::encode_hello(buffer, true), "hello"));
  REQUIRE(hello);
  CHECK(hello->version == protocol::version);
  CHECK(hello->json_log);

  using kind = protocol::runner_report::kind;
  for (const auto& report :
       {protocol::runner_report{}, protocol::runner_report{kind::running, 4242},
        protocol::runner_report{kind::exited, 17, true, 9},
        protocol::runner_report{kind::exited, 18, false, 3}}) {
    const auto decoded = protocol::decode_keeper_hello(
        rest_of(protocol::encode_keeper_hello(buffer, report), "hello"));
    REQUIRE(decoded);
    CHECK(decoded->state == report.state);
    if (report.state == kind::none) continue;
    CHECK(decoded->pid == report.pid);
    CHECK(decoded->signaled == report.signaled);
    CHECK(decoded->code == report.code);
  }

  const auto exited =
      protocol::decode_exited(rest_of(protocol::encode_exited(buffer, {77, true, 15}), "exited"));
  REQUIRE(exited);
  CHECK((exited->pid == 77 && exited->signaled && exited->code == 15));

  const auto pair = protocol::decode_number_pair(
      rest_of(protocol::encode_number_pair(buffer, "signal", 12, 3), "signal"));
  REQUIRE(pair);
  CHECK((pair->first == 12 && pair->second == 3));

  const std::string text = "level=info msg=\"a line with spaces\" and more";
  const auto line =
      protocol::decode_line(rest_of(protocol::encode_line(buffer, true, 99, 5, text), "line"));
  REQUIRE(line);
  CHECK((line->stderr_stream && line->pid == 99 && line->dropped == 5 && line->text == text));
}

TEST_CASE("keeper protocol: malformed messages are refused", "[keeper]") {
  for (const char* bad : {"", "x", "1", "1 yaml", "one text", "1 text extra"})
    CHECK_FALSE(protocol::decode_hello(bad));
  for (const char* bad : {"", "1 running", "1 running x", "1 exited 5 1", "1 bogus 5"})
    CHECK_FALSE(protocol::decode_keeper_hello(bad));
  for (const char* bad : {"", "5", "5 1", "x 1 3", "5 1 3 4"})
    CHECK_FALSE(protocol::decode_exited(bad));
  for (const char* bad : {"", "5", "5 x", "5 6 7", "-"})
    CHECK_FALSE(protocol::decode_number_pair(bad));
  for (const char* bad : {"", "out", "sideways 1 0 text", "out x 0 t", "err 1 y t"})
    CHECK_FALSE(protocol::decode_line(bad));
}

TEST_CASE("keeper protocol: an encoder never writes past a buffer too small", "[keeper]") {
  std::array<char, 8> small{};
  CHECK(protocol::encode_line(small, false, 1, 0, "a longer line than eight bytes") == 0);
  CHECK(protocol::encode_text(small, "spawn_failed", "2 No such file") == 0);
  const std::string longest(protocol::line_bytes_max, 'x');
  CHECK(protocol::encode_line(buffer, false, 1 << 30, ~0ULL, longest) > 0);
}

TEST_CASE("line splitter: lines, carriage returns, long lines in pieces, the tail", "[keeper]") {
  runwarden::line_splitter splitter;
  std::vector<std::string> lines;
  const auto emit = [&lines](std::string_view line) {
    lines.emplace_back(line);
    return true;
  };
  splitter.feed("one\r\ntw", emit);
  splitter.feed("o\n\nthree", emit);
  CHECK(lines == std::vector<std::string>{"one", "two", ""});
  splitter.finish(emit);
  CHECK(lines.back() == "three");
  lines.clear();
  splitter.feed(std::string(protocol::line_bytes_max + 10, 'y') + "\n", emit);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].size() == protocol::line_bytes_max);
  CHECK(lines[1] == std::string(10, 'y'));
}

TEST_CASE("line splitter: a line refused is offered again, whole, and nothing is lost",
          "[keeper]") {
  runwarden::line_splitter splitter;
  std::vector<std::string> taken;
  bool full = false;
  const auto emit = [&](std::string_view line) {
    if (full) return false;
    taken.emplace_back(line);
    full = taken.size() % 2 == 0;  // every second line fills the link
    return true;
  };
  std::string input;
  for (int i = 0; i < 9; ++i) input += "line " + std::to_string(i) + "\n";
  std::string_view rest = input;
  while (!rest.empty()) {
    rest.remove_prefix(splitter.feed(rest, emit));
    full = false;  // the link drained
  }
  REQUIRE(taken.size() == 9);
  for (int i = 0; i < 9; ++i) CHECK(taken[i] == "line " + std::to_string(i));
}

TEST_CASE("keeper resume: the state an upgrade carries comes back whole, once", "[keeper]") {
  namespace resume = runwarden::keeper_resume;
  resume::state carried{
      .runner = 321, .stdout_fd = 7, .stderr_fd = 8, .next_sequence = 12, .json_log = true};
  carried.last = {protocol::runner_report::kind::exited, 300, false, 2};
  REQUIRE(carried.pending.add(10, 15));
  REQUIRE(carried.pending.add(11, 1));
  resume::to_environment(carried);
  const auto back = resume::from_environment();
  REQUIRE(back);
  CHECK((back->runner == 321 && back->stdout_fd == 7 && back->stderr_fd == 8));
  CHECK((back->last.pid == 300 && back->last.code == 2));
  CHECK((back->next_sequence == 12 && back->json_log));
  REQUIRE(back->pending.items().size() == 2);
  CHECK((back->pending.items()[1].sequence == 11 && back->pending.items()[1].number == 1));
  CHECK(std::getenv(resume::variable) == nullptr);
  CHECK_FALSE(resume::from_environment());

  ::setenv(resume::variable, "garbage", 1);
  CHECK_FALSE(resume::from_environment());
  resume::clear_environment();
}

TEST_CASE("keeper resume: pending signals are bounded and removed by sequence", "[keeper]") {
  runwarden::keeper_resume::signals pending;
  for (std::uint64_t i = 0; i < runwarden::keeper_resume::signals::count_max; ++i)
    REQUIRE(pending.add(i, 15));
  CHECK_FALSE(pending.add(99, 15));
  pending.remove(3);
  CHECK(pending.items().size() == runwarden::keeper_resume::signals::count_max - 1);
  CHECK(pending.add(99, 2));
  CHECK(pending.items().back().sequence == 99);
}

// The journal's framing: CRC-32C against its published check value, the prologue's
// verdicts, and frame scans that stop at the first torn or corrupt frame.
#include <catch2/catch.hpp>

#include "src/journal/journal_frame.hpp"

namespace {

using namespace runwarden;

std::string journal_of(const std::vector<std::string>& payloads) {
  std::string bytes = encode_prologue();
  for (const auto& payload : payloads) bytes += encode_frame(payload);
  return bytes;
}

}  // namespace

TEST_CASE("CRC-32C matches its check value", "[journal][frame]") {
  // The catalogue of parametrised CRC algorithms lists check=0xe3069283 for CRC-32/ISCSI.
  CHECK(crc32c("123456789") == 0xe3069283u);
  CHECK(crc32c("") == 0u);
}

TEST_CASE("a frame is length, checksum and payload, little-endian", "[journal][frame]") {
  const auto frame = encode_frame("abc");
  REQUIRE(frame.size() == frame_header_bytes + 3);
  CHECK(frame.substr(0, 4) == std::string{"\x03\x00\x00\x00", 4});
  const auto crc = crc32c("abc");
  CHECK(static_cast<unsigned char>(frame[4]) == (crc & 0xffu));
  CHECK(static_cast<unsigned char>(frame[7]) == (crc >> 24));
  CHECK(frame.substr(8) == "abc");
}

TEST_CASE("the prologue says journal, version and nothing else", "[journal][frame]") {
  CHECK(encode_prologue().size() == journal_prologue_bytes);
  CHECK(check_prologue(encode_prologue()).result == prologue_check::verdict::supported);
  const auto newer = check_prologue(encode_prologue(journal_format_version + 1));
  CHECK(newer.result == prologue_check::verdict::newer_version);
  CHECK(newer.format_version == journal_format_version + 1);
  CHECK(check_prologue(encode_prologue(0)).result == prologue_check::verdict::not_a_journal);
  CHECK(check_prologue("RWJOURN").result == prologue_check::verdict::not_a_journal);
  CHECK(check_prologue("#!/bin/sh\necho hello\n").result == prologue_check::verdict::not_a_journal);
}

TEST_CASE("a clean journal scans to its end", "[journal][frame]") {
  const auto bytes = journal_of({"header", "", "entry two"});
  const auto scan = scan_frames(bytes);
  CHECK_FALSE(scan.damage);
  CHECK(scan.payloads == std::vector<std::string_view>{"header", "", "entry two"});
  CHECK(scan.good_bytes == bytes.size());
}

TEST_CASE("a scan stops at the first bad frame and says where", "[journal][frame]") {
  const auto good = journal_of({"header", "first"});
  auto bytes = good + encode_frame("second") + encode_frame("third");
  const auto second_at = good.size();
  SECTION("a flipped payload byte") {
    bytes[second_at + frame_header_bytes + 2] ^= 0x10;
    const auto scan = scan_frames(bytes);
    REQUIRE(scan.damage);
    CHECK(scan.damage->what == "checksum mismatch");
    CHECK(scan.damage->offset == second_at);
    CHECK(scan.damage->record_number == 2);
    CHECK(scan.payloads.size() == 2);
    CHECK(scan.good_bytes == second_at);
  }
  SECTION("a length past the maximum") {
    bytes[second_at + 3] = '\x40';
    const auto scan = scan_frames(bytes);
    REQUIRE(scan.damage);
    CHECK_THAT(scan.damage->what, Catch::Contains("exceeds the maximum"));
    CHECK(scan.good_bytes == second_at);
  }
  SECTION("a torn header") {
    const auto scan = scan_frames(std::string_view{bytes}.substr(0, second_at + 5));
    REQUIRE(scan.damage);
    CHECK(scan.damage->what == "torn frame header: 5 of 8 bytes");
  }
  SECTION("a torn payload") {
    const auto scan = scan_frames(std::string_view{bytes}.substr(0, second_at + 10));
    REQUIRE(scan.damage);
    CHECK(scan.damage->what == "torn record: 2 of 6 payload bytes");
  }
}

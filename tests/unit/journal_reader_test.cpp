// Reading journals back, damaged ones above all: a torn last record cut at every byte
// offset, every byte of a record flipped in turn, a header that is damaged, a journal
// from a newer format version and files that are no journal at all. The method: record a
// real drain with the writer, damage the bytes, and check what the reader keeps and what
// it reports, in memory (parse_journal) and on disk (recover_journal truncates).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "src/journal/journal_codec.hpp"
#include "src/journal/journal_frame.hpp"
#include "src/journal/journal_reader.hpp"
#include "tests/common/file_bytes.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;

void write_bytes(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream{file, std::ios::binary | std::ios::trunc} << bytes;
}

// File offsets where each record's frame starts (the header is record 0).
std::vector<std::size_t> record_offsets(std::string_view bytes) {
  std::vector<std::size_t> offsets;
  for (const auto payload : scan_frames(bytes).payloads)
    offsets.push_back(static_cast<std::size_t>(payload.data() - bytes.data()) - frame_header_bytes);
  return offsets;
}

struct recorded_journal {
  journal_temp_dir dir;
  std::filesystem::path file = dir.file("journal");
  std::string bytes;
  std::vector<std::size_t> offsets;
  recorded_journal() {
    write_recorded_drain(file);
    bytes = file_bytes(file);
    offsets = record_offsets(bytes);
  }
};

}  // namespace

TEST_CASE("a recorded drain reads back whole", "[journal][reader]") {
  recorded_journal journal;
  const auto read = read_journal(journal.file);
  REQUIRE(read.contents);
  const auto& contents = *read.contents;
  CHECK_FALSE(contents.damage);
  CHECK(contents.good_bytes == journal.bytes.size());
  CHECK(contents.header.created_by == "test");
  CHECK(contents.header.config == journal_test_config());
  const auto drain = recorded_drain();
  REQUIRE(contents.entries.size() == drain.size());
  for (std::size_t index = 0; index < drain.size(); ++index) {
    CHECK(contents.entries[index].sequence == index + 1);
    CHECK(contents.entries[index].at == drain[index].first);
    CHECK(contents.entries[index].event == drain[index].second);
  }
  CHECK(contents.entries.front().effects == std::vector<std::string>{"spawn_runner"});
}

TEST_CASE("a torn last record is found at every byte offset", "[journal][reader]") {
  recorded_journal journal;
  const auto last = journal.offsets.back();
  const auto entries_before = journal.offsets.size() - 2;
  for (auto size = last + 1; size < journal.bytes.size(); ++size) {
    CAPTURE(size);
    const auto read = parse_journal(std::string_view{journal.bytes}.substr(0, size));
    REQUIRE(read.contents);
    CHECK(read.contents->entries.size() == entries_before);
    REQUIRE(read.contents->damage);
    CHECK(read.contents->damage->offset == last);
    CHECK(read.contents->damage->record_number == entries_before + 1);
    CHECK(read.contents->damage->bytes_dropped == size - last);
    CHECK(read.contents->good_bytes == last);
  }
  const auto clean = parse_journal(std::string_view{journal.bytes}.substr(0, last));
  REQUIRE(clean.contents);
  CHECK_FALSE(clean.contents->damage);
  CHECK(clean.contents->entries.size() == entries_before);
}

TEST_CASE("every flipped byte of a record ends the good prefix there", "[journal][reader]") {
  recorded_journal journal;
  const std::size_t record = 5;
  const auto begin = journal.offsets[record];
  const auto end = journal.offsets[record + 1];
  for (auto at = begin; at < end; ++at) {
    CAPTURE(at);
    auto bytes = journal.bytes;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x04);
    const auto read = parse_journal(bytes);
    REQUIRE(read.contents);
    CHECK(read.contents->entries.size() == record - 1);
    REQUIRE(read.contents->damage);
    CHECK(read.contents->damage->offset == begin);
    CHECK(read.contents->damage->record_number == record);
    CHECK(read.contents->good_bytes == begin);
  }
}

TEST_CASE("recovery cuts the damaged tail off the file, and only then", "[journal][reader]") {
  recorded_journal journal;
  SECTION("a torn tail") {
    write_bytes(journal.file, journal.bytes.substr(0, journal.bytes.size() - 3));
    const auto recovered = recover_journal(journal.file);
    REQUIRE(recovered.contents);
    REQUIRE(recovered.contents->damage);
    CHECK_THAT(describe(*recovered.contents->damage),
               Catch::Contains("record 11 at offset") && Catch::Contains("torn record"));
    CHECK(file_bytes(journal.file) == journal.bytes.substr(0, journal.offsets.back()));
    // The recovered journal takes the next entry with the next sequence number.
    auto open = journal_writer::reopen(journal.file, recovered.contents->entries.size());
    REQUIRE(open.writer);
    REQUIRE_FALSE(open.writer->append(instant{0}, reload_requested{}, {}));
    const auto again = read_journal(journal.file);
    REQUIRE(again.contents);
    CHECK_FALSE(again.contents->damage);
    CHECK(again.contents->entries.back().sequence == 11);
    CHECK(again.contents->entries.back().event == drain_event{reload_requested{}});
  }
  SECTION("a clean journal is left as it is") {
    REQUIRE(recover_journal(journal.file).contents);
    CHECK(file_bytes(journal.file) == journal.bytes);
  }
}

TEST_CASE("a journal from a newer format version is refused untouched", "[journal][reader]") {
  recorded_journal journal;
  auto bytes = journal.bytes;
  bytes.replace(0, journal_prologue_bytes, encode_prologue(journal_format_version + 1));
  bytes += "torn tail that a version 1 reader must not cut";
  write_bytes(journal.file, bytes);
  const auto read = recover_journal(journal.file);
  CHECK_FALSE(read.contents);
  CHECK_THAT(read.error, Catch::Contains("format version 2 is newer") &&
                             Catch::Contains(journal.file.string()));
  CHECK(file_bytes(journal.file) == bytes);
}

TEST_CASE("files that are no journal are refused", "[journal][reader]") {
  recorded_journal journal;
  SECTION("text") {
    write_bytes(journal.file, "[runners]\nname = \"x\"\n");
    CHECK_THAT(recover_journal(journal.file).error, Catch::Contains("not a runwarden journal"));
    CHECK(file_bytes(journal.file) == "[runners]\nname = \"x\"\n");
  }
  SECTION("empty") {
    write_bytes(journal.file, "");
    CHECK_THAT(read_journal(journal.file).error, Catch::Contains("not a runwarden journal"));
  }
  SECTION("a damaged header") {
    auto bytes = journal.bytes;
    bytes[journal_prologue_bytes + frame_header_bytes + 1] ^= 0x01;
    write_bytes(journal.file, bytes);
    CHECK_THAT(recover_journal(journal.file).error,
               Catch::Contains("header record is damaged: checksum mismatch"));
    CHECK(file_bytes(journal.file) == bytes);
  }
  SECTION("an entry where the header belongs") {
    write_bytes(
        journal.file,
        encode_prologue() +
            encode_frame(encode_record(journal_entry{
                .sequence = 1, .at = instant{0}, .event = warden_started{}, .effects = {}})));
    CHECK_THAT(read_journal(journal.file).error, Catch::Contains("does not begin with a header"));
  }
  SECTION("missing") {
    CHECK_THAT(read_journal(journal.dir.file("nothing")).error,
               Catch::Contains("cannot open journal") && Catch::Contains("nothing"));
  }
}

TEST_CASE("a gap in the sequence is damage", "[journal][reader]") {
  const auto entry = [](std::uint64_t sequence) {
    return encode_frame(encode_record(journal_entry{
        .sequence = sequence, .at = instant{0}, .event = reload_requested{}, .effects = {}}));
  };
  const auto header = encode_frame(encode_record(
      journal_header{.created_by = "test", .created_unix_ns = 0, .config = journal_test_config()}));
  const auto read = parse_journal(encode_prologue() + header + entry(1) + entry(3));
  REQUIRE(read.contents);
  CHECK(read.contents->entries.size() == 1);
  REQUIRE(read.contents->damage);
  CHECK(read.contents->damage->what == "sequence 3 where 2 was due");
  CHECK(read.contents->damage->record_number == 2);
}

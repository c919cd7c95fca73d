// libFuzzer target for the journal reader, seeded with real journals so that mutations
// land in frames, checksums and records as well as in random bytes. Whatever the bytes, the
// reader refuses the file or keeps a good prefix, and the cut is clean: the prefix it keeps
// reads back whole, with the same entries and no damage, which is what recovery relies on
// when it truncates the file there and appends after it.
#include "fuzz/fuzz_promise.hpp"
#include "src/journal/journal_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const std::string_view bytes = fuzz::as_text(data, size);
  const journal_read read = parse_journal(bytes);
  fuzz::require(read.contents.has_value() == read.error.empty());
  if (!read.contents) return 0;
  const journal_contents& contents = *read.contents;
  fuzz::require(contents.good_bytes <= bytes.size());
  for (std::size_t index = 0; index < contents.entries.size(); ++index)
    fuzz::require(contents.entries[index].sequence == index + 1);
  if (!contents.damage) {
    fuzz::require(contents.good_bytes == bytes.size());
    return 0;
  }
  fuzz::require(contents.damage->offset == contents.good_bytes);
  fuzz::require(contents.damage->bytes_dropped == bytes.size() - contents.good_bytes);
  fuzz::require(contents.damage->bytes_dropped > 0);
  fuzz::require(contents.damage->record_number == contents.entries.size() + 1);
  fuzz::require(!describe(*contents.damage).empty());

  const journal_read cut = parse_journal(bytes.substr(0, contents.good_bytes));
  fuzz::require(cut.contents.has_value());
  fuzz::require(!cut.contents->damage);
  fuzz::require(cut.contents->good_bytes == contents.good_bytes);
  fuzz::require(cut.contents->entries.size() == contents.entries.size());
  return 0;
}

#pragma once
// Reads a journal back: the header, then every entry up to the first damage. A torn or
// corrupt tail (a crash mid-append, a flipped byte) ends the good prefix and is reported
// with its offset and record number; everything before it is kept. A file that is not a
// journal, or one whose header is damaged, is refused, and so is a journal written in a
// newer format version, which is never modified.
//
//   read_journal     looks only: replay uses it.
//   recover_journal  also cuts a damaged tail off the file (and fsyncs), so that the
//                    writer can append after the last good record: startup uses it.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/journal/journal_entry.hpp"

namespace runwarden {

struct journal_damage {
  std::uint64_t offset = 0;         // file offset of the first bad record
  std::uint64_t record_number = 0;  // the header is record 0; entry N is record N
  std::string what;
  std::uint64_t bytes_dropped = 0;  // from offset to the end of the file
};

struct journal_contents {
  journal_header header;
  std::vector<journal_entry> entries;  // sequence numbers 1..entries.size()
  std::optional<journal_damage> damage;
  std::uint64_t good_bytes = 0;  // file size once the damaged tail is cut off
};

// Either contents, or why the file was refused.
struct journal_read {
  std::optional<journal_contents> contents;
  std::string error;
};

// Pure: the whole file's bytes in.
journal_read parse_journal(std::string_view file_bytes);

journal_read read_journal(const std::filesystem::path& file);
journal_read recover_journal(const std::filesystem::path& file);

// "record 7 at offset 912: checksum mismatch (43 bytes dropped)"
std::string describe(const journal_damage& damage);

}  // namespace runwarden

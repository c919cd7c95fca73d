#pragma once
// The journal's byte layout (messages/runwarden/journal/v1/README.md): a 12-byte prologue
// (magic, format version), then frames of [payload length u32 LE][CRC-32C of the payload
// u32 LE][payload]. Pure: bytes in, bytes or findings out; the files are journal_writer's
// and journal_reader's business.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden {

inline constexpr std::string_view journal_magic = "RWJOURNL";
inline constexpr std::uint32_t journal_format_version = 1;
inline constexpr std::size_t journal_prologue_bytes = 12;
inline constexpr std::size_t frame_header_bytes = 8;
// No record comes near this (a shutdown carries at most 16 callbacks); a length above it
// can only be damage, and reading it must not allocate whatever a flipped bit says.
inline constexpr std::uint32_t record_bytes_max = 1u << 20;

// CRC-32C (Castagnoli), as iSCSI, ext4 and LevelDB's log use it; Boost.CRC computes it.
std::uint32_t crc32c(std::string_view bytes);

std::string encode_prologue(std::uint32_t format_version = journal_format_version);
std::string encode_frame(std::string_view payload);

struct prologue_check {
  enum class verdict : std::uint8_t { supported, newer_version, not_a_journal };
  verdict result;
  std::uint32_t format_version = 0;  // as read, when the magic matched
};
prologue_check check_prologue(std::string_view file_bytes);

// Where the good frames end and why: a torn frame (the file ends inside it), a length past
// record_bytes_max, or a checksum that does not match.
struct frame_damage {
  std::uint64_t offset = 0;         // of the first bad frame, from the start of the file
  std::uint64_t record_number = 0;  // its index: the header is record 0
  std::string what;
};

struct frame_scan {
  std::vector<std::string_view> payloads;  // views into the scanned bytes
  std::uint64_t good_bytes = 0;            // file offset just past the last good frame
  std::optional<frame_damage> damage;
};

// Scans the frames after the prologue of `file_bytes` (whose prologue was checked).
frame_scan scan_frames(std::string_view file_bytes);

}  // namespace runwarden

// See journal_frame.hpp.
#include "src/journal/journal_frame.hpp"

#include <boost/crc.hpp>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// CRC-32C: polynomial 0x1EDC6F41, reflected, initial and final XOR all ones.
using crc32c_type = boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true>;

void append_u32_le(std::string& out, std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8)
    out.push_back(static_cast<char>((value >> shift) & 0xFFu));
}

std::uint32_t read_u32_le(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (int index = 3; index >= 0; --index)
    value = (value << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(index)]);
  return value;
}

}  // namespace

std::uint32_t crc32c(std::string_view bytes) {
  crc32c_type crc;
  crc.process_bytes(bytes.data(), bytes.size());
  return crc.checksum();
}

std::string encode_prologue(std::uint32_t format_version) {
  std::string out{journal_magic};
  append_u32_le(out, format_version);
  return out;
}

std::string encode_frame(std::string_view payload) {
  RUNWARDEN_ASSERT(payload.size() <= record_bytes_max);
  std::string out;
  out.reserve(frame_header_bytes + payload.size());
  append_u32_le(out, static_cast<std::uint32_t>(payload.size()));
  append_u32_le(out, crc32c(payload));
  out.append(payload);
  return out;
}

prologue_check check_prologue(std::string_view file_bytes) {
  if (file_bytes.size() < journal_prologue_bytes || !file_bytes.starts_with(journal_magic))
    return {prologue_check::verdict::not_a_journal};
  const auto version = read_u32_le(file_bytes, journal_magic.size());
  if (version == 0) return {prologue_check::verdict::not_a_journal, version};
  if (version > journal_format_version) return {prologue_check::verdict::newer_version, version};
  return {prologue_check::verdict::supported, version};
}

frame_scan scan_frames(std::string_view file_bytes) {
  RUNWARDEN_ASSERT(file_bytes.size() >= journal_prologue_bytes);
  frame_scan scan;
  std::size_t at = journal_prologue_bytes;
  const auto damaged = [&](std::string what) {
    scan.damage = frame_damage{at, scan.payloads.size(), std::move(what)};
  };
  while (at < file_bytes.size()) {
    const auto left = file_bytes.size() - at;
    if (left < frame_header_bytes) {
      damaged("torn frame header: " + std::to_string(left) + " of 8 bytes");
      break;
    }
    const auto length = read_u32_le(file_bytes, at);
    if (length > record_bytes_max) {
      damaged("record length " + std::to_string(length) + " exceeds the maximum " +
              std::to_string(record_bytes_max));
      break;
    }
    if (left - frame_header_bytes < length) {
      damaged("torn record: " + std::to_string(left - frame_header_bytes) + " of " +
              std::to_string(length) + " payload bytes");
      break;
    }
    const auto payload = file_bytes.substr(at + frame_header_bytes, length);
    if (crc32c(payload) != read_u32_le(file_bytes, at + 4)) {
      damaged("checksum mismatch");
      break;
    }
    scan.payloads.push_back(payload);
    at += frame_header_bytes + length;
  }
  scan.good_bytes = scan.damage ? scan.damage->offset : at;
  return scan;
}

}  // namespace runwarden

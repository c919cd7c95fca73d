// See journal_reader.hpp.
#include "src/journal/journal_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "src/journal/journal_codec.hpp"
#include "src/journal/journal_frame.hpp"

namespace runwarden {

namespace {

journal_read refused(std::string error) { return journal_read{std::nullopt, std::move(error)}; }

std::string system_error_text(const std::string& what, const std::filesystem::path& file) {
  return what + " " + file.string() + ": " + std::strerror(errno);
}

// Decodes entries until the first that fails or breaks the sequence; returns its damage.
std::optional<journal_damage> decode_entries(const frame_scan& scan, std::string_view bytes,
                                             std::vector<journal_entry>& entries) {
  for (std::size_t index = 1; index < scan.payloads.size(); ++index) {
    const auto payload = scan.payloads[index];
    const auto offset =
        static_cast<std::uint64_t>(payload.data() - bytes.data()) - frame_header_bytes;
    const auto damage_here = [&](std::string what) {
      return journal_damage{offset, index, std::move(what), 0};
    };
    try {
      auto record = decode_record(payload);
      auto* entry = std::get_if<journal_entry>(&record);
      if (entry == nullptr) return damage_here("a second header record");
      if (entry->sequence != index)
        return damage_here("sequence " + std::to_string(entry->sequence) + " where " +
                           std::to_string(index) + " was due");
      entries.push_back(std::move(*entry));
    } catch (const journal_format_error& error) {
      return damage_here(error.what());
    }
  }
  return std::nullopt;
}

}  // namespace

journal_read parse_journal(std::string_view bytes) {
  const auto prologue = check_prologue(bytes);
  if (prologue.result == prologue_check::verdict::not_a_journal)
    return refused("not a runwarden journal (no valid prologue)");
  if (prologue.result == prologue_check::verdict::newer_version)
    return refused("journal format version " + std::to_string(prologue.format_version) +
                   " is newer than this runwarden reads (" +
                   std::to_string(journal_format_version) + "); left untouched");
  const auto scan = scan_frames(bytes);
  if (scan.payloads.empty())
    return refused("journal header record is damaged: " +
                   (scan.damage ? scan.damage->what : std::string{"missing"}));
  journal_contents contents;
  try {
    auto header = decode_record(scan.payloads.front());
    if (!std::holds_alternative<journal_header>(header))
      return refused("journal does not begin with a header record");
    contents.header = std::move(std::get<journal_header>(header));
  } catch (const journal_format_error& error) {
    return refused(std::string{"journal header record is damaged: "} + error.what());
  }
  contents.damage = decode_entries(scan, bytes, contents.entries);
  if (!contents.damage && scan.damage)
    contents.damage =
        journal_damage{scan.damage->offset, scan.damage->record_number, scan.damage->what, 0};
  contents.good_bytes = contents.damage ? contents.damage->offset : scan.good_bytes;
  if (contents.damage) contents.damage->bytes_dropped = bytes.size() - contents.good_bytes;
  return journal_read{std::move(contents), {}};
}

journal_read read_journal(const std::filesystem::path& file) {
  // O_NOFOLLOW: a link planted in the state directory is refused (ELOOP), never followed.
  const int descriptor = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (descriptor < 0) return refused(system_error_text("cannot open journal", file));
  std::string bytes;
  char buffer[65536];
  ssize_t got = 0;
  while ((got = ::read(descriptor, buffer, sizeof buffer)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
  const auto error = got < 0 ? system_error_text("cannot read journal", file) : std::string{};
  ::close(descriptor);
  if (!error.empty()) return refused(error);
  auto read = parse_journal(bytes);
  if (!read.contents) read.error = file.string() + ": " + read.error;
  return read;
}

journal_read recover_journal(const std::filesystem::path& file) {
  auto read = read_journal(file);
  if (!read.contents || !read.contents->damage) return read;
  const int descriptor = ::open(file.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (descriptor < 0) return refused(system_error_text("cannot open journal to truncate", file));
  const bool cut = ::ftruncate(descriptor, static_cast<off_t>(read.contents->good_bytes)) == 0 &&
                   ::fsync(descriptor) == 0;
  const auto error = cut ? std::string{} : system_error_text("cannot truncate journal", file);
  ::close(descriptor);
  if (!cut) return refused(error);
  return read;
}

std::string describe(const journal_damage& damage) {
  return "record " + std::to_string(damage.record_number) + " at offset " +
         std::to_string(damage.offset) + ": " + damage.what + " (" +
         std::to_string(damage.bytes_dropped) + " bytes dropped)";
}

}  // namespace runwarden

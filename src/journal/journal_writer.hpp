#pragma once
// Appends entries to a journal file. The warden calls it between the drain machine's step
// and carrying out the effects, so an input is durable before anything it caused happens:
//
//   auto effects = machine.step(event, now);
//   if (auto error = writer.append(now, event, effects)) stop: the drain cannot be recorded
//   for (const auto& effect : effects) carry_out(effect);
//
// Durability is the sync policy's: fsync after every record (the default), or after every
// N records, with the caller calling sync() on a timer of its own for the rest. Each record
// goes out in one write() on an O_APPEND descriptor, so a crash leaves at worst one torn
// record at the end, which journal_reader cuts off.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "src/journal/journal_entry.hpp"

namespace runwarden {

struct journal_sync_policy {
  // fsync after this many appended records; 1 is every record, 0 never (the caller's sync()
  // alone, or none: benchmarks and tests that measure without the disk).
  std::uint32_t records_per_sync = 1;
};

struct journal_open;

class journal_writer {
 public:
  // Creates `file` anew with `header` as record 0: written beside it, fsynced and renamed
  // into place, so a crash never leaves a journal without a whole header. `file` must not
  // exist yet (a previous journal is recovered or retired first).
  static journal_open create(const std::filesystem::path& file, const journal_header& header,
                             journal_sync_policy policy = {});
  // Opens a journal that recover_journal read (and cut to its good prefix) for appending.
  static journal_open reopen(const std::filesystem::path& file, std::uint64_t entries_present,
                             journal_sync_policy policy = {});

  journal_writer(journal_writer&& other) noexcept;
  journal_writer& operator=(journal_writer&& other) noexcept;
  journal_writer(const journal_writer&) = delete;
  journal_writer& operator=(const journal_writer&) = delete;
  ~journal_writer();

  // Appends one entry (the next sequence number, the effects as text) and syncs when the
  // policy says so. A failed write (a full disk, a file system turned read-only) may have
  // left part of a record: the next append first cuts the file back to its last whole
  // record, so a caller that appends the refused entry again, and the ones after it in
  // order, keeps the journal whole. After a failed sync nothing on disk is certain, and
  // every later append is refused (usable() turns false).
  std::optional<std::string> append(instant at, const drain_event& event,
                                    const std::vector<drain_effect>& effects);
  // fsyncs what is not yet synced; does nothing when all is.
  std::optional<std::string> sync();
  bool usable() const { return !sync_failed_; }

  // Records appended since the last fsync: a batching caller arms its flush timer when this
  // turns non-zero.
  std::uint32_t unsynced_records() const { return unsynced_records_; }
  std::uint64_t next_sequence() const { return next_sequence_; }
  std::uint64_t size_bytes() const { return size_bytes_; }
  const std::filesystem::path& file() const { return file_; }

 private:
  journal_writer(std::filesystem::path file, int descriptor, std::uint64_t next_sequence,
                 std::uint64_t size_bytes, journal_sync_policy policy);
  // After a failed write: the file cut back to size_bytes_, its last whole record.
  std::optional<std::string> cut_partial_record();

  std::filesystem::path file_;
  int descriptor_ = -1;
  std::uint64_t next_sequence_ = 1;
  std::uint64_t size_bytes_ = 0;
  journal_sync_policy policy_;
  std::uint32_t unsynced_records_ = 0;
  bool write_failed_ = false;  // the file may end in part of a record
  bool sync_failed_ = false;   // the file's contents on disk are unknown
};

// Either a writer, or why there is none (the caller must then refuse to start).
struct journal_open {
  std::optional<journal_writer> writer;
  std::string error;
};

}  // namespace runwarden

#pragma once
// The journal as `runwarden run` keeps it: the state directory made ready and locked (one
// runwarden per directory), an unfinished drain recovered from it, a new journal begun
// otherwise, and the journal retired once the drain reached gone. Every refusal happens
// before the runner starts, so a drain is never run that cannot be recorded. Outside a
// drain, a journal grown past journal.compact_bytes is compacted (journal_compaction.hpp).
//
// A disk that refuses a write mid-run (full, or its file system turned read-only) never
// stops or shortens a drain: the warden acts on what it knows in memory. The entries not
// written wait here, in order, up to unrecorded_entries_max, and are written again (with
// backoff, on later appends) once the disk takes them, so the file stays a gapless prefix of
// what happened; a runwarden restarted meanwhile continues from the last entry written and
// reconciles the rest. Past the limit, or after a failed fsync (the disk's contents are then
// unknown), writing stops for this run. Each change is logged once and shown in health().
// Held entries are tried again on each append and on the caller's timer (write_held), so a
// drain that makes no entries for hours is not left with its last ones in memory.

#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/config/settings.hpp"
#include "src/journal/journal_compaction.hpp"
#include "src/journal/journal_health.hpp"
#include "src/journal/journal_writer.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

struct run_journal_open;

class run_journal {
 public:
  // `config` is recorded in a new journal; a recovered drain goes on with the config it
  // was recorded with (recovered_config()).
  static run_journal_open open(const settings& config, const drain_config& drain,
                               const environment_map& environment);

  run_journal(run_journal&& other) noexcept;
  run_journal& operator=(run_journal&&) = delete;
  run_journal(const run_journal&) = delete;
  ~run_journal();

  // Entries held in memory at most while the disk refuses them: hours of a drain's events.
  static constexpr std::size_t unrecorded_entries_max = 16384;

  // Thread-safe: the warden appends from a CAF worker while the main thread may retire.
  // After retire() appends are refused quietly (a late answer after gone changes nothing).
  // An error only when the journal stops being written for this run; a refusal the disk
  // may lift is held, logged and shown in health().
  std::optional<std::string> append(instant at, const drain_event& event,
                                    const std::vector<drain_effect>& effects);
  // Writes the held entries when their backoff is over, for a drain that makes no new
  // entries for a long while (a long job): the caller's timer calls it. As append().
  std::optional<std::string> write_held(instant now);
  journal_health health() const;
  // Non-empty when an earlier runwarden left a drain unfinished.
  const std::vector<journal_entry>& recovered() const { return recovered_; }
  const drain_config& config() const { return config_; }
  const std::filesystem::path& directory() const { return directory_; }

  // At gone: the journal becomes journal.prev, so the next start begins afresh.
  void retire();

 private:
  run_journal(std::filesystem::path directory, int lock, journal_writer writer,
              std::vector<journal_entry> recovered, drain_config config,
              std::uint64_t compact_bytes, journal_sync_policy policy);
  struct unrecorded_entry {
    instant at;
    drain_event event;
    std::vector<drain_effect> effects;
  };

  // The held entries, oldest first, while the disk takes them; an error when it stops.
  std::optional<std::string> write_unrecorded(instant now);
  std::optional<std::string> write_refused(instant now, const std::string& error);
  // The shadow and the history take one entry.
  void follow(const drain_event& event, instant at);
  // Past compact_bytes and outside a drain: the journal rewritten as the present.
  std::optional<std::string> compact(instant now);

  std::filesystem::path directory_;
  int lock_ = -1;
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();  // guards writer_
  std::optional<journal_writer> writer_;
  std::vector<journal_entry> recovered_;
  drain_config config_;
  // Follows every entry, so that compaction knows the present without asking the warden.
  std::unique_ptr<drain_machine> shadow_;
  // Beside it, what the state does not keep and compaction must (runwarden's first start).
  journal_history history_;
  std::uint64_t compact_bytes_;
  journal_sync_policy policy_;
  std::deque<unrecorded_entry> unrecorded_;
  std::uint32_t refusals_in_a_row_ = 0;
  instant next_attempt_at_{0};
  bool stopped_ = false;  // no more writes this run (a failed sync, or past the limit)
  std::uint64_t write_failures_total_ = 0;
};

// Either the journal, or why runwarden must not start (and the exit code saying so).
struct run_journal_open {
  std::optional<run_journal> journal;
  std::string error;
  int exit_code = 0;
};

}  // namespace runwarden

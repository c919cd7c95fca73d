#pragma once
// The journal as `runwarden run` keeps it: the state directory made ready and locked (one
// runwarden per directory), an unfinished drain recovered from it, a new journal begun
// otherwise, and the journal retired once the drain reached gone. Every refusal happens
// before the runner starts, so a drain is never run that cannot be recorded. Outside a
// drain, a journal grown past journal.compact_bytes is compacted (journal_compaction.hpp).

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/config/settings.hpp"
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

  // Thread-safe: the warden appends from a CAF worker while the main thread may retire.
  // After retire() appends are refused quietly (a late answer after gone changes nothing).
  std::optional<std::string> append(instant at, const drain_event& event,
                                    const std::vector<drain_effect>& effects);
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
  std::uint64_t compact_bytes_;
  journal_sync_policy policy_;
};

// Either the journal, or why runwarden must not start (and the exit code saying so).
struct run_journal_open {
  std::optional<run_journal> journal;
  std::string error;
  int exit_code = 0;
};

}  // namespace runwarden

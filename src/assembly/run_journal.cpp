// See run_journal.hpp.
#include "src/assembly/run_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "runwarden_version.hpp"
#include "src/journal/journal_compaction.hpp"
#include "src/journal/journal_location.hpp"
#include "src/journal/journal_reader.hpp"
#include "src/journal/state_directory.hpp"
#include "src/logging/logging.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace {

std::optional<std::string_view> variable(const environment_map& environment, const char* name) {
  const auto found = environment.find(name);
  if (found == environment.end()) return std::nullopt;
  return found->second;
}

// How soon a refused write is tried again: soon (a freed disk is used at once), then less
// often (a read-only file system stays so), never rarer than every retry_max.
constexpr std::chrono::seconds retry_initial{1};
constexpr std::chrono::seconds retry_max{30};

// True when the recorded drain already reached gone: nothing is left to finish. A
// retirement's drain is never finished: its journal stays, so that every later start
// recovers it, ends the instance again and exits, and no runner is started on a machine
// whose purpose ended. Removing the journal is how a person starts afresh.
bool finished(const journal_contents& contents) {
  drain_machine machine{contents.header.config};
  for (const auto& entry : contents.entries) (void)machine.step(entry.event, entry.at);
  const auto trigger = machine.state().drain_trigger;
  if (trigger == trigger_source::retirement || trigger == trigger_source::replacement) return false;
  // A retained instance still to be ended: recovered, so that it is (the journal goes once
  // the instance end answered).
  if (machine.state().instance_retained) return false;
  return machine.state().status == warden_status::gone;
}

std::int64_t wall_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

journal_header header_for(const drain_config& drain) {
  return {.created_by = std::string{"runwarden "} + version_text,
          .created_unix_ns = wall_clock_ns(),
          .config = drain};
}

}  // namespace

run_journal::run_journal(std::filesystem::path directory, int lock, journal_writer writer,
                         std::vector<journal_entry> recovered, drain_config config,
                         std::uint64_t compact_bytes, journal_sync_policy policy)
    : directory_(std::move(directory)),
      lock_(lock),
      writer_(std::move(writer)),
      recovered_(std::move(recovered)),
      config_(std::move(config)),
      shadow_(std::make_unique<drain_machine>(config_)),
      compact_bytes_(compact_bytes),
      policy_(policy) {
  for (const auto& entry : recovered_) follow(entry.event, entry.at);
}

void run_journal::follow(const drain_event& event, instant at) {
  const auto reported_before = shadow_->state().jobs_reported.jobs().size();
  (void)shadow_->step(event, at);
  observe_entry(history_, event, at, shadow_->state(), reported_before);
}

run_journal::run_journal(run_journal&& other) noexcept
    : directory_(std::move(other.directory_)),
      lock_(std::exchange(other.lock_, -1)),
      mutex_(std::move(other.mutex_)),
      writer_(std::move(other.writer_)),
      recovered_(std::move(other.recovered_)),
      config_(std::move(other.config_)),
      shadow_(std::move(other.shadow_)),
      history_(other.history_),
      compact_bytes_(other.compact_bytes_),
      policy_(other.policy_),
      unrecorded_(std::move(other.unrecorded_)),
      refusals_in_a_row_(other.refusals_in_a_row_),
      next_attempt_at_(other.next_attempt_at_),
      stopped_(other.stopped_),
      write_failures_total_(other.write_failures_total_) {}

run_journal::~run_journal() {
  if (lock_ >= 0) ::close(lock_);
}

run_journal_open run_journal::open(const settings& config, const drain_config& drain,
                                   const environment_map& environment) {
  const auto directory =
      config.journal.state_directory.empty()
          ? default_state_directory(::getuid(), variable(environment, "XDG_STATE_HOME"),
                                    variable(environment, "HOME"))
          : std::optional<std::filesystem::path>{config.journal.state_directory};
  if (!directory)
    return {std::nullopt, "no state directory for the journal: set journal.state_directory",
            exit_config};
  if (auto error = prepare_state_directory(*directory))
    return {std::nullopt, *error, exit_cant_create};
  const auto lock_path = *directory / "lock";
  // O_NOFOLLOW: a link planted in the directory is refused, never followed (as root,
  // following it would create or lock a file anywhere).
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (lock < 0)
    return {std::nullopt,
            "cannot open " + lock_path.string() + ": " + std::strerror(errno) +
                (errno == ELOOP ? " (a symbolic link; refusing to follow it)" : ""),
            exit_cant_create};
  if (::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    const std::string why = std::strerror(errno);
    if (lock >= 0) ::close(lock);
    return {std::nullopt,
            "another runwarden uses the state directory " + directory->string() + " (locking " +
                lock_path.string() + ": " + why + ")",
            exit_unavailable};
  }
  const auto refuse = [&](std::string error, int code) {
    ::close(lock);
    return run_journal_open{std::nullopt, std::move(error), code};
  };
  const journal_sync_policy policy{config.journal.records_per_sync};
  const auto file = journal_file(*directory);
  if (std::filesystem::exists(file)) {
    auto read = recover_journal(file);
    if (!read.contents)
      return refuse("the journal " + file.string() + " cannot be used: " + read.error,
                    exit_data_error);
    if (read.contents->damage)
      warden_logger()->error("journal {}: {}; continuing from the last good record", file.string(),
                             describe(*read.contents->damage));
    if (!finished(*read.contents) && !read.contents->entries.empty()) {
      auto reopened = journal_writer::reopen(file, read.contents->entries.size(), policy);
      if (!reopened.writer) return refuse(reopened.error, exit_cant_create);
      return {run_journal{*directory, lock, std::move(*reopened.writer),
                          std::move(read.contents->entries), read.contents->header.config,
                          config.journal.compact_bytes, policy},
              {},
              0};
    }
    if (auto error = retire_journal(*directory)) return refuse(*error, exit_cant_create);
  }
  auto created = journal_writer::create(file, header_for(drain), policy);
  if (!created.writer) return refuse(created.error, exit_cant_create);
  return {run_journal{*directory,
                      lock,
                      std::move(*created.writer),
                      {},
                      drain,
                      config.journal.compact_bytes,
                      policy},
          {},
          0};
}

std::optional<std::string> run_journal::append(instant at, const drain_event& event,
                                               const std::vector<drain_effect>& effects) {
  const std::lock_guard lock{*mutex_};
  if (!writer_ || stopped_) return std::nullopt;
  unrecorded_.push_back({at, event, effects});
  // Before the backoff is over, entries only wait; at the limit the disk gets a last try.
  const bool waiting = refusals_in_a_row_ > 0 && at < next_attempt_at_;
  if (waiting && unrecorded_.size() <= unrecorded_entries_max) return std::nullopt;
  return write_unrecorded(at);
}

std::optional<std::string> run_journal::write_held(instant now) {
  const std::lock_guard lock{*mutex_};
  if (!writer_ || stopped_ || unrecorded_.empty() || now < next_attempt_at_) return std::nullopt;
  return write_unrecorded(now);
}

journal_health run_journal::health() const {
  const std::lock_guard lock{*mutex_};
  return {.healthy = !stopped_ && unrecorded_.empty(),
          .write_failures_total = write_failures_total_,
          .unrecorded_entries = unrecorded_.size()};
}

std::optional<std::string> run_journal::write_unrecorded(instant now) {
  const auto held = unrecorded_.size();
  while (!unrecorded_.empty()) {
    const auto& next = unrecorded_.front();
    if (auto error = writer_->append(next.at, next.event, next.effects))
      return write_refused(now, *error);
    follow(next.event, next.at);
    unrecorded_.pop_front();
  }
  if (refusals_in_a_row_ > 0)
    warden_logger()->info("journal {}: written again, {} held entries caught up",
                          writer_->file().string(), held);
  refusals_in_a_row_ = 0;
  if (writer_->size_bytes() <= compact_bytes_) return std::nullopt;
  return compact(now);
}

// The disk refused: the entries wait for the next attempt, a backoff from now, unless the
// file cannot be trusted any more or too many wait. Logged at the first refusal of a run.
std::optional<std::string> run_journal::write_refused(instant now, const std::string& error) {
  ++write_failures_total_;
  if (!writer_->usable() || unrecorded_.size() > unrecorded_entries_max) {
    stopped_ = true;
    const auto lost = std::exchange(unrecorded_, {}).size();
    return error + "; the journal is not written again this run (" + std::to_string(lost) +
           " entries not written), and a runwarden restarted now would continue from its "
           "last entry";
  }
  if (refusals_in_a_row_++ == 0)
    warden_logger()->error(
        "journal: {}; the drain goes on, its entries held in memory (up to "
        "{}) and written again once the disk takes them",
        error, unrecorded_entries_max);
  next_attempt_at_ = now + capped_backoff(retry_initial, retry_max, refusals_in_a_row_, 0, 0);
  return std::nullopt;
}

// The compacted journal is written whole beside the old one, synced, then renamed over it:
// a crash at any point leaves one whole journal, the old or the new.
std::optional<std::string> run_journal::compact(instant now) {
  auto steps = compacted_steps(config_, shadow_->state(), history_, now);
  if (!steps) return std::nullopt;  // a drain is under way: its history is the drain
  // Jobs written again may make it no shorter (a small compact_bytes): then it is not
  // rewritten on every append.
  if (steps->size() * 2 >= writer_->next_sequence()) return std::nullopt;
  const auto file = journal_file(directory_);
  const auto beside = directory_ / "journal.compacting";
  std::error_code ignored;
  std::filesystem::remove(beside, ignored);  // left by a crash mid-compaction
  auto created = journal_writer::create(beside, header_for(config_), policy_);
  if (!created.writer) return "compacting the journal: " + created.error;
  for (const auto& step : *steps)
    if (auto error = created.writer->append(step.at, step.event, step.effects))
      return "compacting the journal: " + *error;
  if (auto error = created.writer->sync()) return "compacting the journal: " + *error;
  const auto before = writer_->size_bytes();
  created.writer.reset();
  writer_.reset();
  std::error_code renamed;
  std::filesystem::rename(beside, file, renamed);
  if (renamed)
    return "compacting the journal: renaming " + beside.string() + ": " + renamed.message();
  if (auto error = sync_directory(directory_)) return "compacting the journal: " + *error;
  auto reopened = journal_writer::reopen(file, steps->size(), policy_);
  if (!reopened.writer) return "compacting the journal: " + reopened.error;
  writer_ = std::move(reopened.writer);
  shadow_ = std::make_unique<drain_machine>(config_);
  // The history stays as it was: the compacted journal keeps the first start's time.
  for (const auto& step : *steps) (void)shadow_->step(step.event, step.at);
  warden_logger()->info("journal compacted from {} to {} bytes ({} entries)", before,
                        writer_->size_bytes(), steps->size());
  return std::nullopt;
}

void run_journal::retire() {
  const std::lock_guard lock{*mutex_};
  if (!writer_) return;
  if (auto error = writer_->usable() ? writer_->sync() : std::nullopt)
    warden_logger()->error("journal: {}", *error);
  writer_.reset();
  if (auto error = retire_journal(directory_)) warden_logger()->error("journal: {}", *error);
}

}  // namespace runwarden

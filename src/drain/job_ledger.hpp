#pragma once
// The jobs a runner reports itself (`runwarden ctl job start|end`, the ReportJob call): a
// GitHub runner's job hooks, or any runner's own script, say when each job starts and ends.
// gitlab-runner's metrics count its jobs; other runners have no metrics, so without reports
// runwarden cannot tell a busy runner from an idle one.
//
// Pure: no clock, no I/O. The drain machine keeps one ledger and clears its jobs when the
// runner exits; the journal records every report, so a restarted warden keeps them.
//
// How a missed `end` is bounded: jobs have ids, so a start said twice counts once and an end
// names the job it ends; the runner's exit ends every job it reported; and the ledger holds
// at most reported_jobs_max jobs (a start past it is refused, the count stays at the max).
//
// How reports combine with the metrics (combined_jobs): the larger of the two counts, so that
// neither source can make a busy runner look idle. A source that never spoke is unknown:
// a gitlab-runner nobody reports for counts from its metrics alone, a GitHub runner with
// hooks from its reports alone, and a runner with neither stays unknown, as before (scale-in
// protection and idle scale-in never act on an unknown load).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden {

// Jobs one runner may have reported and not ended; far above any runner's concurrency.
inline constexpr std::size_t reported_jobs_max = 256;
// A job id's length: GitHub's run id, attempt and job name fit in far less.
inline constexpr std::size_t job_id_bytes_max = 256;

enum class job_report_kind : std::uint8_t { started, ended };

// A report as the drain machine takes it (an event). An `ended` with an empty id ends no job:
// it only says that the runner reports its jobs (journal compaction writes it for a ledger
// with none).
struct job_reported {
  job_report_kind kind = job_report_kind::started;
  std::string job_id;
  friend bool operator==(const job_reported&, const job_reported&) = default;
};

// What one report did to the ledger.
enum class job_report_outcome : std::uint8_t {
  started,          // a new job counts
  already_started,  // the same id again: counted once
  ended,            // the job is no longer counted
  unknown_job,      // an end for a job not counted (ended before, or cleared by an exit)
  full,             // a start past reported_jobs_max: refused
};

class job_ledger {
 public:
  job_report_outcome apply(const job_reported& report);
  // The runner exited: its jobs ended with it. The runner still reports (its next incarnation
  // runs the same hooks), so the count stays known, at zero.
  void clear_jobs() { jobs_.clear(); }
  // True once any report came: from then on the count is known.
  bool reporting() const { return reporting_; }
  std::optional<std::uint32_t> count() const;
  const std::vector<std::string>& jobs() const { return jobs_; }  // in the order started
  friend bool operator==(const job_ledger&, const job_ledger&) = default;

 private:
  bool reporting_ = false;
  std::vector<std::string> jobs_;  // at most reported_jobs_max
};

// The runner's jobs from its metrics (scraped) and its reports: the larger count when both
// are known, the known one when one is, unknown when neither is.
std::optional<std::uint32_t> combined_jobs(std::optional<std::uint32_t> scraped,
                                           const job_ledger& reported);

// Why a job id from outside is refused (empty, too long, a control character), or nothing.
std::optional<std::string> job_id_problem(std::string_view job_id);

const char* to_string(job_report_kind kind);
const char* to_string(job_report_outcome outcome);

}  // namespace runwarden

// See job_ledger.hpp.
#include "src/drain/job_ledger.hpp"

#include <algorithm>

#include "src/util/assert.hpp"

namespace runwarden {

job_report_outcome job_ledger::apply(const job_reported& report) {
  reporting_ = true;
  // An empty id names no job (the checks at the edge refuse it; a journal may not).
  if (report.job_id.empty()) return job_report_outcome::unknown_job;
  const auto found = std::find(jobs_.begin(), jobs_.end(), report.job_id);
  if (report.kind == job_report_kind::ended) {
    if (found == jobs_.end()) return job_report_outcome::unknown_job;
    jobs_.erase(found);
    return job_report_outcome::ended;
  }
  if (found != jobs_.end()) return job_report_outcome::already_started;
  if (jobs_.size() >= reported_jobs_max) return job_report_outcome::full;
  jobs_.push_back(report.job_id);
  RUNWARDEN_ASSERT(jobs_.size() <= reported_jobs_max);
  return job_report_outcome::started;
}

std::optional<std::uint32_t> job_ledger::count() const {
  if (!reporting_) return std::nullopt;
  return static_cast<std::uint32_t>(jobs_.size());
}

std::optional<std::uint32_t> combined_jobs(std::optional<std::uint32_t> scraped,
                                           const job_ledger& reported) {
  const auto count = reported.count();
  if (!scraped) return count;
  if (!count) return scraped;
  return std::max(*scraped, *count);
}

std::optional<std::string> job_id_problem(std::string_view job_id) {
  if (job_id.empty()) return "a job id is needed";
  if (job_id.size() > job_id_bytes_max)
    return "the job id is longer than " + std::to_string(job_id_bytes_max) + " bytes";
  const bool control = std::any_of(job_id.begin(), job_id.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
  if (control) return "the job id holds a control character";
  return std::nullopt;
}

const char* to_string(job_report_kind kind) {
  switch (kind) {
    case job_report_kind::started:
      return "started";
    case job_report_kind::ended:
      return "ended";
  }
  return "?";
}

const char* to_string(job_report_outcome outcome) {
  switch (outcome) {
    case job_report_outcome::started:
      return "started";
    case job_report_outcome::already_started:
      return "already_started";
    case job_report_outcome::ended:
      return "ended";
    case job_report_outcome::unknown_job:
      return "unknown_job";
    case job_report_outcome::full:
      return "full";
  }
  return "?";
}

}  // namespace runwarden

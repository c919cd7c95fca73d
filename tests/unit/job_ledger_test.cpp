// The reported-jobs ledger on its own: ids make a start said twice count once and an end
// name its job; the count is unknown until the first report; a full ledger refuses starts;
// and combined with the metrics the larger count wins, so neither source hides a busy runner.
#include <catch2/catch.hpp>

#include <string>

#include "src/drain/job_ledger.hpp"

using namespace runwarden;

namespace {

job_reported start(std::string id) { return {job_report_kind::started, std::move(id)}; }
job_reported end(std::string id) { return {job_report_kind::ended, std::move(id)}; }

}  // namespace

TEST_CASE("reported jobs count by id", "[jobs]") {
  job_ledger ledger;
  CHECK(ledger.count() == std::nullopt);
  CHECK(ledger.apply(start("a")) == job_report_outcome::started);
  CHECK(ledger.apply(start("a")) == job_report_outcome::already_started);
  CHECK(ledger.apply(start("b")) == job_report_outcome::started);
  CHECK(ledger.count() == 2u);
  CHECK(ledger.apply(end("a")) == job_report_outcome::ended);
  CHECK(ledger.apply(end("a")) == job_report_outcome::unknown_job);
  CHECK(ledger.jobs() == std::vector<std::string>{"b"});
  ledger.clear_jobs();
  CHECK(ledger.count() == 0u);  // still reporting: known, and idle
}

TEST_CASE("an end alone makes the count known", "[jobs]") {
  job_ledger ledger;
  CHECK(ledger.apply(end("")) == job_report_outcome::unknown_job);
  CHECK(ledger.reporting());
  CHECK(ledger.count() == 0u);
  CHECK(ledger.apply(start("")) == job_report_outcome::unknown_job);  // names no job
  CHECK(ledger.count() == 0u);
}

TEST_CASE("a full ledger refuses starts and still takes ends", "[jobs]") {
  job_ledger ledger;
  for (std::size_t i = 0; i < reported_jobs_max; ++i)
    REQUIRE(ledger.apply(start(std::to_string(i))) == job_report_outcome::started);
  CHECK(ledger.apply(start("one-more")) == job_report_outcome::full);
  CHECK(ledger.count() == reported_jobs_max);
  CHECK(ledger.apply(end("0")) == job_report_outcome::ended);
  CHECK(ledger.apply(start("one-more")) == job_report_outcome::started);
}

TEST_CASE("metrics and reports combine to the larger known count", "[jobs]") {
  job_ledger silent;
  CHECK(combined_jobs(std::nullopt, silent) == std::nullopt);
  CHECK(combined_jobs(3u, silent) == 3u);
  job_ledger reporting;
  reporting.apply(start("a"));
  CHECK(combined_jobs(std::nullopt, reporting) == 1u);
  CHECK(combined_jobs(0u, reporting) == 1u);
  CHECK(combined_jobs(4u, reporting) == 4u);
}

TEST_CASE("job ids from outside are checked", "[jobs]") {
  CHECK_FALSE(job_id_problem("123456-1-build (linux)"));
  CHECK(job_id_problem("") == "a job id is needed");
  CHECK(job_id_problem(std::string(job_id_bytes_max + 1, 'x')));
  CHECK_FALSE(job_id_problem(std::string(job_id_bytes_max, 'x')));
  CHECK(job_id_problem("a\nb") == "the job id holds a control character");
}

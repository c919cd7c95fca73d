// See metadata_key_watch.hpp. A failed read starts over with a plain GET rather than a
// waiting one: after an outage the value may have changed with nobody waiting for it, and
// a plain GET answers at once.
#include "src/gcp/metadata_key_watch.hpp"

#include "src/util/assert.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/seeded_random.hpp"
#include "src/util/uri_encoding.hpp"

namespace runwarden {

namespace {

constexpr int http_ok = 200;
constexpr double backoff_jitter = 0.2;
// A hanging GET's own timeout is the server's timeout_sec plus this, so that the server, not
// the client, ends a quiet wait.
constexpr std::chrono::seconds wait_grace{5};

std::optional<std::string> header_value(const imds_answer& answer, std::string_view name) {
  for (const auto& [key, value] : answer.headers)
    if (key == name) return value;
  return std::nullopt;
}

std::string trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.remove_suffix(1);
  return std::string{text};
}

}  // namespace

metadata_key_watch::metadata_key_watch(metadata_key_watch_config config)
    : config_(std::move(config)), random_state_(config_.random_seed) {
  RUNWARDEN_ASSERT(!config_.endpoint.empty() && !config_.key.empty());
  RUNWARDEN_ASSERT(config_.wait_timeout.count() > 0 && config_.read_timeout.count() > 0);
  RUNWARDEN_ASSERT(config_.backoff_initial.count() > 0 &&
                   config_.backoff_initial <= config_.backoff_max);
}

metadata_request metadata_key_watch::start() { return plain_read(); }

metadata_request metadata_key_watch::retry_due() { return plain_read(); }

metadata_request metadata_key_watch::plain_read() const {
  return {config_.endpoint + std::string{gcp_metadata_path} + config_.key,
          {{std::string{gcp_flavor_header}, std::string{gcp_flavor}}},
          config_.read_timeout};
}

metadata_request metadata_key_watch::waiting_read() const {
  auto url = config_.endpoint + std::string{gcp_metadata_path} + config_.key +
             "?wait_for_change=true&timeout_sec=" + std::to_string(config_.wait_timeout.count());
  if (!etag_.empty()) url += "&last_etag=" + uri_encode(etag_, slash_encoding::encode);
  return {std::move(url),
          {{std::string{gcp_flavor_header}, std::string{gcp_flavor}}},
          config_.wait_timeout + wait_grace};
}

metadata_key_step metadata_key_watch::answer_arrived(const imds_answer& answer) {
  const std::string where = std::string{gcp_metadata_path} + config_.key;
  if (!answer.status_code)
    return back_off("no answer", where + ": no answer: " + answer.transport_error);
  if (*answer.status_code != http_ok) {
    const auto status = "HTTP " + std::to_string(*answer.status_code);
    return back_off(status, where + ": unexpected " + status);
  }
  // The header names arrive in lower case (http_messages.hpp).
  if (header_value(answer, "metadata-flavor") != gcp_flavor)
    return back_off("no flavor", where +
                                     ": the answer lacks \"Metadata-Flavor: Google\"; "
                                     "it does not come from the metadata server");
  metadata_key_step step;
  if (!problem_kind_.empty()) {
    step.reports.push_back({report_level::info, where + ": answers again"});
    problem_kind_.clear();
  }
  failures_ = 0;
  etag_ = header_value(answer, "etag").value_or("");
  auto value = trimmed(answer.body);
  if (value != value_) {
    value_ = value;
    step.changed_value = std::move(value);
  }
  step.request = waiting_read();
  return step;
}

metadata_key_step metadata_key_watch::back_off(std::string kind, std::string problem) {
  metadata_key_step step;
  ++failures_;
  const auto delay = capped_backoff(config_.backoff_initial, config_.backoff_max, failures_,
                                    backoff_jitter, next_unit_random(random_state_));
  if (kind != problem_kind_) {
    step.reports.push_back({report_level::warning, problem + "; asking again with backoff"});
    problem_kind_ = std::move(kind);
  }
  step.retry_after = delay;
  return step;
}

}  // namespace runwarden

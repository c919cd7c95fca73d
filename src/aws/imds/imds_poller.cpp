// See imds_poller.hpp. Problems with the token and the identity document are reported when
// they change, like the watched pages' (lifecycle_watch.cpp), so a dead service costs one
// log line, not one a second.
#include "src/aws/imds/imds_poller.hpp"

#include "src/util/assert.hpp"

#include "src/aws/imds/scheduled_events.hpp"

namespace runwarden {

namespace {

constexpr int http_ok = 200;
constexpr int http_unauthorized = 401;

// Reports `problem` unless its kind is the one reported last. The kind, not the text,
// decides: libcurl's messages carry elapsed milliseconds and differ every time.
void report_change(std::string& last_kind, std::string kind, std::string problem,
                   std::vector<poller_effect>& effects) {
  if (kind == last_kind) return;
  effects.push_back(watch_report{report_level::warning, std::move(problem)});
  last_kind = std::move(kind);
}

std::string failure_kind(const imds_answer& answer) {
  return answer.status_code ? "HTTP " + std::to_string(*answer.status_code) : "no answer";
}

std::optional<std::string> header_value(const imds_answer& answer, std::string_view name) {
  for (const auto& [key, value] : answer.headers)
    if (key == name) return value;
  return std::nullopt;
}

std::string lower_case(std::string_view text) {
  std::string lowered{text};
  for (auto& character : lowered)
    if (character >= 'A' && character <= 'Z') character = static_cast<char>(character + 32);
  return lowered;
}

}  // namespace

imds_poller::imds_poller(imds_poller_config config)
    : config_(std::move(config)), watch_(config_.policy), random_state_(config_.random_seed) {
  RUNWARDEN_ASSERT(!config_.endpoint.empty());
  RUNWARDEN_ASSERT(config_.request_timeout.count() > 0);
  RUNWARDEN_ASSERT(config_.token_ttl.count() > 0 && config_.token_ttl <= imds_token_ttl_max);
  RUNWARDEN_ASSERT(config_.retry.attempts_max >= 1);
  RUNWARDEN_ASSERT(config_.spot_every_polls >= 1);
}

std::vector<poller_effect> imds_poller::poll_due(instant now) {
  std::vector<poller_effect> effects;
  if (busy()) return effects;
  pages_ = {page::lifecycle_state};
  if (polls_started_++ % config_.spot_every_polls == 0) {
    pages_.push_back(page::spot_action);
    if (config_.policy.rebalance != rebalance_action::ignore) pages_.push_back(page::rebalance);
  }
  if (config_.scheduled_events_interval &&
      (!scheduled_events_due_ || now >= *scheduled_events_due_)) {
    pages_.push_back(page::scheduled_events);
    scheduled_events_due_ = now + *config_.scheduled_events_interval;
  }
  // Last, so that its retries never hold up the pages that can start a drain.
  if (!identity_known_) pages_.push_back(page::identity);
  cursor_ = 0;
  read_attempts_ = 0;
  refetched_after_401_ = false;
  reading_without_token_ = false;
  advance(now, effects);
  return effects;
}

std::vector<poller_effect> imds_poller::answer_arrived(const imds_answer& answer, instant now) {
  std::vector<poller_effect> effects;
  if (waiting_to_retry_) return effects;  // no request is out: a stray answer
  if (step_ == step::token)
    on_token_answer(answer, now, effects);
  else if (step_ == step::read)
    on_read_answer(answer, now, effects);
  return effects;
}

std::vector<poller_effect> imds_poller::retry_due(instant now) {
  std::vector<poller_effect> effects;
  if (!waiting_to_retry_) return effects;
  waiting_to_retry_ = false;
  advance(now, effects);
  return effects;
}

// Sends whatever the poll needs next: a token first when the read needs one.
void imds_poller::advance(instant now, std::vector<poller_effect>& effects) {
  if (cursor_ == pages_.size()) {
    step_ = step::idle;
    return;
  }
  if (reading_without_token_) {
    step_ = step::read;
    send_read(effects, std::nullopt);
    return;
  }
  if (const auto token = token_.usable(now)) {
    step_ = step::read;
    send_read(effects, token);
    return;
  }
  step_ = step::token;
  send_token_request(effects);
}

void imds_poller::send_token_request(std::vector<poller_effect>& effects) {
  ++token_attempts_;
  effects.push_back(imds_request{
      "PUT",
      config_.endpoint + std::string{imds_token_path},
      {{std::string{imds_token_ttl_header}, std::to_string(config_.token_ttl.count())}},
      config_.request_timeout});
}

void imds_poller::send_read(std::vector<poller_effect>& effects,
                            std::optional<std::string_view> token) {
  std::string_view path;
  switch (pages_[cursor_]) {
    case page::lifecycle_state:
      path = imds_lifecycle_state_path;
      break;
    case page::spot_action:
      path = imds_spot_action_path;
      break;
    case page::rebalance:
      path = imds_rebalance_path;
      break;
    case page::scheduled_events:
      path = imds_scheduled_events_path;
      break;
    case page::identity:
      path = imds_identity_path;
      break;
  }
  ++read_attempts_;
  imds_request request{"GET", config_.endpoint + std::string{path}, {}, config_.request_timeout};
  if (token) request.headers.emplace_back(imds_token_header, *token);
  effects.push_back(std::move(request));
}

bool imds_poller::retry(const imds_answer& answer, std::uint32_t attempts, std::string& problem,
                        std::vector<poller_effect>& effects) {
  const auto decision =
      decide_after_attempt(config_.retry, attempts, answer.status_code, random_state_);
  if (decision.verdict == delivery_verdict::retry) {
    waiting_to_retry_ = true;
    effects.push_back(retry_after{decision.delay});
    return true;
  }
  problem = answer.transport_error.empty() ? decision.why
                                           : answer.transport_error + " (" + decision.why + ")";
  return false;
}

void imds_poller::on_token_answer(const imds_answer& answer, instant now,
                                  std::vector<poller_effect>& effects) {
  std::string problem;
  if (answer.status_code != http_ok) {
    if (retry(answer, token_attempts_, problem, effects)) return;
    token_given_up(failure_kind(answer), "IMDSv2 token: " + problem, now, effects);
    return;
  }
  auto accepted = accept_imds_token(
      answer.body, header_value(answer, lower_case(imds_token_ttl_header)), config_.token_ttl);
  if (!accepted.token) {
    token_given_up(accepted.error, "IMDSv2 token: " + accepted.error, now, effects);
    return;
  }
  token_.store(std::move(*accepted.token), accepted.ttl, now);
  token_attempts_ = 0;
  if (!token_problem_.empty()) {
    effects.push_back(watch_report{report_level::info, "IMDSv2 token: fetched again"});
    token_problem_.clear();
  }
  advance(now, effects);
}

// Without IMDSv1 fallback the poll ends here; the next one starts with a new token fetch.
void imds_poller::token_given_up(std::string kind, std::string problem, instant now,
                                 std::vector<poller_effect>& effects) {
  token_attempts_ = 0;
  if (!config_.allow_v1_fallback) {
    report_change(token_problem_, std::move(kind), problem + "; this poll is skipped", effects);
    step_ = step::idle;
    return;
  }
  report_change(token_problem_, std::move(kind),
                problem + "; reading without a token (IMDSv1 fallback)", effects);
  reading_without_token_ = true;
  advance(now, effects);
}

void imds_poller::on_read_answer(const imds_answer& answer, instant now,
                                 std::vector<poller_effect>& effects) {
  // A 401 means the token expired or was revoked early: one new token for this read.
  if (answer.status_code == http_unauthorized && !reading_without_token_ && !refetched_after_401_) {
    refetched_after_401_ = true;
    --read_attempts_;
    token_.drop();
    advance(now, effects);
    return;
  }
  watch_outcome outcome;
  switch (pages_[cursor_]) {
    case page::lifecycle_state:
      outcome = watch_.on_lifecycle_state(answer);
      break;
    case page::spot_action:
      outcome = watch_.on_spot_action(answer);
      break;
    case page::rebalance:
      outcome = watch_.on_rebalance(answer);
      break;
    case page::scheduled_events:
      effects.push_back(scheduled_events_read{answer});
      next_page(now, effects);
      return;
    case page::identity:
      on_identity_answer(answer, now, effects);
      return;
  }
  for (auto& report : outcome.reports) effects.push_back(std::move(report));
  if (outcome.trigger) effects.push_back(std::move(*outcome.trigger));
  next_page(now, effects);
}

void imds_poller::on_identity_answer(const imds_answer& answer, instant now,
                                     std::vector<poller_effect>& effects) {
  std::string problem;
  if (answer.status_code == http_ok) {
    auto parsed = parse_instance_identity(answer.body);
    if (parsed.identity) {
      identity_known_ = true;
      identity_problem_.clear();
      effects.push_back(std::move(*parsed.identity));
    } else {
      report_change(identity_problem_, parsed.error, parsed.error, effects);
    }
  } else if (retry(answer, read_attempts_, problem, effects)) {
    return;
  } else {
    report_change(identity_problem_, failure_kind(answer), "instance identity document: " + problem,
                  effects);
  }
  next_page(now, effects);
}

void imds_poller::next_page(instant now, std::vector<poller_effect>& effects) {
  ++cursor_;
  read_attempts_ = 0;
  refetched_after_401_ = false;
  advance(now, effects);
}

}  // namespace runwarden

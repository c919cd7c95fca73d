#pragma once
// One poll of the instance metadata service, as a pure machine: which request to send
// next, what an answer means, when to wait and retry. The AWS watcher actor feeds it
// ticks, answers and retry timers, and carries out its effects through the HTTP port, one
// request at a time.
//
//   poll_due ─▶ [token PUT, when none is usable] ─▶ GET lifecycle state
//            ─▶ GET spot action ─▶ GET rebalance (unless ignored; both every few polls)
//            ─▶ GET scheduled events (on their own cadence)
//            ─▶ GET identity (until known) ─▶ idle
//
// The scheduled events page is not judged here: its answer is handed on as it came
// (scheduled_events_read), since what it means depends on the wall-clock time, which the
// watcher's scheduled_event_watch is given.
//
// The token PUT and the identity GET are retried with jittered backoff, a bounded number
// of times (the webhook's delivery_retry rules: 5xx and no answer retry, 4xx does not); the
// watched pages are not, since the next poll reads them again anyway. A 401 on a read drops
// the token and fetches a new one once for that read. Without a token and without IMDSv1
// fallback the poll ends there; with fallback it reads without a token. A tick that finds a
// poll still running is skipped, so requests never pile up.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "src/aws/imds/imds_documents.hpp"
#include "src/aws/imds/imds_token_cache.hpp"
#include "src/aws/imds/lifecycle_watch.hpp"
#include "src/webhook/delivery_retry.hpp"

namespace runwarden {

// Metadata documents are small; anything past this is not one of them.
inline constexpr std::size_t imds_response_bytes_max = 16 * 1024;

struct imds_poller_config {
  std::string endpoint;  // from resolve_imds_endpoint
  lifecycle_watch_policy policy;
  std::chrono::milliseconds request_timeout{std::chrono::seconds{1}};
  std::chrono::seconds token_ttl = imds_token_ttl_max;
  bool allow_v1_fallback = false;
  // For the token and the identity document only.
  delivery_limits retry{std::chrono::milliseconds{100}, std::chrono::seconds{1}, 3};
  std::uint64_t random_seed = 0;
  // How often the scheduled maintenance events page is read; unset: never.
  std::optional<std::chrono::milliseconds> scheduled_events_interval = std::nullopt;
  // The spot notice and rebalance pages are read on every this many polls (the first poll
  // always): EC2 gives a spot notice two minutes ahead, and AWS suggests reading it every
  // 5 s, while the lifecycle state page is read on every poll.
  std::uint32_t spot_every_polls = 1;
};

// Effects, in the order to carry out.
struct imds_request {
  std::string method;
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds timeout{0};
  std::size_t max_response_bytes = imds_response_bytes_max;
};
struct retry_after {
  std::chrono::nanoseconds delay{0};
};
struct scheduled_events_read {
  imds_answer answer;
};
using poller_effect = std::variant<imds_request, retry_after, lifecycle_trigger, instance_identity,
                                   watch_report, scheduled_events_read>;

class imds_poller {
 public:
  explicit imds_poller(imds_poller_config config);

  // Starts a poll unless one is running.
  std::vector<poller_effect> poll_due(instant now);
  // The answer to the request last sent.
  std::vector<poller_effect> answer_arrived(const imds_answer& answer, instant now);
  // The wait asked for with retry_after is over.
  std::vector<poller_effect> retry_due(instant now);

  bool busy() const { return step_ != step::idle; }
  bool identity_known() const { return identity_known_; }
  const lifecycle_watch& watch() const { return watch_; }

 private:
  enum class step : std::uint8_t { idle, token, read };
  enum class page : std::uint8_t {
    lifecycle_state,
    spot_action,
    rebalance,
    scheduled_events,
    identity
  };

  void advance(instant now, std::vector<poller_effect>& effects);
  void send_token_request(std::vector<poller_effect>& effects);
  void send_read(std::vector<poller_effect>& effects, std::optional<std::string_view> token);
  void on_token_answer(const imds_answer& answer, instant now, std::vector<poller_effect>& effects);
  void on_read_answer(const imds_answer& answer, instant now, std::vector<poller_effect>& effects);
  void on_identity_answer(const imds_answer& answer, instant now,
                          std::vector<poller_effect>& effects);
  // After failed attempt number `attempts` of the token or identity: true with retry_after
  // among the effects, or false with `problem` set when the budget is spent or retrying
  // cannot help.
  bool retry(const imds_answer& answer, std::uint32_t attempts, std::string& problem,
             std::vector<poller_effect>& effects);
  void token_given_up(std::string kind, std::string problem, instant now,
                      std::vector<poller_effect>& effects);
  void next_page(instant now, std::vector<poller_effect>& effects);

  imds_poller_config config_;
  lifecycle_watch watch_;
  imds_token_cache token_;
  std::vector<page> pages_;  // this poll's reads, in order
  std::size_t cursor_ = 0;   // the page being read
  step step_ = step::idle;
  bool waiting_to_retry_ = false;
  std::uint32_t token_attempts_ = 0;  // of the token fetch under way
  std::uint32_t read_attempts_ = 0;   // of the page being read
  bool refetched_after_401_ = false;
  bool reading_without_token_ = false;  // IMDSv1 fallback for the rest of this poll
  bool identity_known_ = false;
  std::optional<instant> scheduled_events_due_;  // the next read of it; unset: at once
  std::uint64_t polls_started_ = 0;
  std::string token_problem_;     // the kind of token failure last reported; empty when fine
  std::string identity_problem_;  // likewise for the identity document
  std::uint64_t random_state_ = 0;
};

}  // namespace runwarden

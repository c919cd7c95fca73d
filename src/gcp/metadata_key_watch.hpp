#pragma once
// One key of the Google Compute Engine metadata server, watched the way Google's
// documentation says to wait for a change ("View and query VM metadata", "Wait for a
// change"): a plain GET first, for the value and its ETag, then hanging GETs with
// ?wait_for_change=true&last_etag=ETAG&timeout_sec=N, which the server answers as soon as
// the value's ETag differs, or after N seconds with the value unchanged. So runwarden wakes
// when something changes, not every poll interval. Every request carries
// "Metadata-Flavor: Google" and every answer must carry it back; one that does not is not
// the metadata server's and is refused.
//
//   start ─▶ GET (plain) ─200─▶ value ─▶ GET wait_for_change ─200─▶ value ─▶ GET wait ...
//                 └─no answer, not 200, no Metadata-Flavor─▶ back off ─▶ GET (plain) again
//
// Failures back off exponentially (a dead server costs a request every backoff_max, not a
// tight loop) and are reported when they change, as the EC2 pages are. A value is reported
// (changed_value) on the first read and whenever it differs from the last. Pure: no clock,
// no I/O; the random draw for the backoff comes from a seeded state it owns.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/aws/imds/lifecycle_watch.hpp"

namespace runwarden {

inline constexpr std::string_view gcp_metadata_path = "/computeMetadata/v1/";
inline constexpr std::string_view gcp_flavor_header = "Metadata-Flavor";
inline constexpr std::string_view gcp_flavor = "Google";
// The keys' values are single words; anything longer is not one of them.
inline constexpr std::size_t gcp_value_bytes_max = 4 * 1024;

struct metadata_key_watch_config {
  std::string endpoint;  // from resolve_gcp_metadata_endpoint
  std::string key;       // under /computeMetadata/v1/, such as "instance/preempted"
  std::chrono::seconds wait_timeout{std::chrono::minutes{5}};       // timeout_sec of a hanging GET
  std::chrono::milliseconds read_timeout{std::chrono::seconds{2}};  // a plain GET's
  std::chrono::milliseconds backoff_initial{std::chrono::seconds{1}};
  std::chrono::milliseconds backoff_max{std::chrono::seconds{30}};
  std::uint64_t random_seed = 0;
};

struct metadata_request {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds timeout{0};
};

struct metadata_key_step {
  std::optional<std::string> changed_value;  // the value, when new
  std::vector<watch_report> reports;
  // Exactly one of the two: the next request now, or a wait before retry_due().
  std::optional<metadata_request> request;
  std::optional<std::chrono::nanoseconds> retry_after;
};

class metadata_key_watch {
 public:
  explicit metadata_key_watch(metadata_key_watch_config config);

  metadata_request start();
  // The answer to the request last returned.
  metadata_key_step answer_arrived(const imds_answer& answer);
  // The wait asked for with retry_after is over.
  metadata_request retry_due();

  const std::optional<std::string>& value() const { return value_; }

 private:
  metadata_request plain_read() const;
  metadata_request waiting_read() const;
  metadata_key_step back_off(std::string kind, std::string problem);

  metadata_key_watch_config config_;
  std::optional<std::string> value_;
  std::string etag_;            // of value_; empty until the first good read
  std::uint32_t failures_ = 0;  // in a row, for the backoff
  std::string problem_kind_;    // empty while the key reads as expected
  std::uint64_t random_state_ = 0;
};

}  // namespace runwarden

#pragma once
// What the answers of the three watched metadata pages mean for the runner. Each page is a
// level read again every poll, so each trigger is latched: the first answer that calls for
// a drain yields one trigger, and the same answer on later polls yields nothing.
//
//   target-lifecycle-state   404 ─▶ nothing (no transition yet)
//                            a drain state (Terminated, Warmed:Terminated by default)
//                                ─▶ trigger cloud_lifecycle, once
//                            another known state ─▶ reported when it changes
//                            unknown text ─▶ warned once per value, never a trigger
//   spot/instance-action     404 ─▶ nothing;  {"action","time"} ─▶ trigger
//                            spot_interruption, deadline = time - safety margin, once
//   rebalance recommendation 404 ─▶ nothing;  {"noticeTime"} ─▶ per policy: ignored,
//                            logged once, or trigger rebalance_recommendation once
//
// A page that fails (no answer, an unexpected status, malformed JSON) is reported when its
// problem changes and again when it recovers, so a dead service does not log every second.
// Pure: no clock, no I/O.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/aws/imds/imds_documents.hpp"
#include "src/aws/imds/target_lifecycle_state.hpp"
#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

// Distinct unknown lifecycle values warned about; past this, further ones are not.
inline constexpr std::size_t unknown_states_warned_max = 8;

enum class rebalance_action : std::uint8_t { ignore, log, drain };

std::string_view to_string(rebalance_action action);
std::optional<rebalance_action> parse_rebalance_action(std::string_view text);

struct lifecycle_watch_policy {
  // Detached, Standby and the warm-pool states other than Warmed:Terminated leave the
  // instance running, often to come back, so by default they do not end the runner.
  std::vector<target_lifecycle_state> drain_states{target_lifecycle_state::terminated,
                                                   target_lifecycle_state::warmed_terminated};
  // Subtracted from the spot notice's time: the drain deadline leaves this long for the
  // forceful signal, SIGKILL and unregistering before EC2 takes the instance.
  std::chrono::milliseconds spot_safety_margin{std::chrono::seconds{30}};
  rebalance_action rebalance = rebalance_action::log;
};

// One answer of the metadata service, as the HTTP port gave it.
struct imds_answer {
  std::optional<int> status_code;  // nullopt: no answer, see transport_error
  std::string body;
  std::string transport_error;
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case
};

struct lifecycle_trigger {
  trigger_source source = trigger_source::cloud_lifecycle;
  std::optional<wall_time> deadline;  // wall-clock time, from the notice
  std::string reason;
  friend bool operator==(const lifecycle_trigger&, const lifecycle_trigger&) = default;
};

struct watch_report {
  report_level level = report_level::info;
  std::string text;
};

struct watch_outcome {
  std::optional<lifecycle_trigger> trigger;
  std::vector<watch_report> reports;
};

class lifecycle_watch {
 public:
  explicit lifecycle_watch(lifecycle_watch_policy policy);

  watch_outcome on_lifecycle_state(const imds_answer& answer);
  watch_outcome on_spot_action(const imds_answer& answer);
  watch_outcome on_rebalance(const imds_answer& answer);

  const lifecycle_watch_policy& policy() const { return policy_; }
  std::optional<target_lifecycle_state> last_state() const { return last_state_; }

 private:
  // Whether one page currently fails, so that only changes are reported. The kind, not the
  // text, decides: libcurl's messages carry elapsed milliseconds and differ every time.
  struct page_health {
    std::string problem_kind;  // empty while the page answers as expected
  };

  enum class page_answer : std::uint8_t { failed, absent, present };

  // failed (reported when the problem is new), absent (404) or present (200, body to read).
  static page_answer classify(page_health& health, std::string_view page, const imds_answer& answer,
                              watch_outcome& outcome);
  static void fail(page_health& health, std::string kind, std::string problem,
                   watch_outcome& outcome);
  // The page was understood: a failure before it is reported over.
  static void recover(page_health& health, std::string_view page, watch_outcome& outcome);
  bool drains(target_lifecycle_state state) const;

  lifecycle_watch_policy policy_;
  page_health lifecycle_health_, spot_health_, rebalance_health_;
  std::optional<target_lifecycle_state> last_state_;
  std::vector<std::string> unknown_states_warned_;  // at most unknown_states_warned_max
  bool lifecycle_latched_ = false;
  bool spot_latched_ = false;
  bool rebalance_latched_ = false;
};

}  // namespace runwarden

#pragma once
// Everything `runwarden run` can be told, with its default. The TOML file fills it, flags
// override it, and config/runwarden.toml documents each key. Defaults live here only.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/aws/imds/lifecycle_watch.hpp"
#include "src/aws/imds/scheduled_event_watch.hpp"
#include "src/azure/azure_event_watch.hpp"
#include "src/gcp/gcp_notice_watch.hpp"
#include "src/kubernetes/kubernetes_settings.hpp"
#include "src/logging/log_settings.hpp"
#include "src/retirement/retirement_policy.hpp"
#include "src/runner/runner_kind.hpp"
#include "src/scaling/scaling_policy.hpp"
#include "src/supervision/restart_policy.hpp"
#include "src/unregister/unregister_settings.hpp"
#include "src/webhook/webhook_settings.hpp"

namespace runwarden {

enum class output_mode : std::uint8_t { log, inherit };

struct runner_settings {
  // Empty means "decide from the command": gitlab for gitlab-runner, generic otherwise.
  std::optional<runner_kind_name> kind;
  std::vector<std::string> command;  // argv, byte for byte; the flags' `-- COMMAND` wins
  output_mode output = output_mode::log;
  // Only for the generic kind; gitlab's signals are fixed by gitlab-runner itself.
  std::optional<int> graceful_signal;
  std::optional<int> forceful_signal;
  // Where the runner's Prometheus metrics are; empty means from gitlab_config's
  // listen_address, or none (jobs unknown).
  std::string metrics_url;
  std::chrono::milliseconds metrics_interval{std::chrono::seconds{5}};
  // While the runner drains: the jobs counting down show live.
  std::chrono::milliseconds metrics_interval_draining{std::chrono::seconds{1}};
  // gitlab-runner's own config.toml: its metrics address, runners and tokens, system id.
  std::string gitlab_config;
};

struct drain_settings {
  // No deadline by default: jobs may take as long as they take.
  std::optional<std::chrono::milliseconds> timeout;
  // After the forceful signal, how long before SIGKILL. Empty: for the gitlab kind,
  // gitlab-runner's own shutdown_timeout (config.toml, 30 s when unset) plus a margin, since
  // that is how long gitlab-runner itself takes to clean up aborted jobs; 10 s otherwise.
  std::optional<std::chrono::milliseconds> kill_timeout;
  // A drain that comes this soon after the runner started holds its graceful signal until
  // the runner's metrics answer or this passes: its signal handlers may not be in place.
  std::chrono::milliseconds start_grace{std::chrono::seconds{1}};
  // A drain whose deadline is closer than this (an Azure or Google preemption gives about
  // 30 s) unregisters a GitLab runner alongside the drain instead of after its stop.
  std::optional<std::chrono::milliseconds> unregister_alongside_below{std::chrono::seconds{60}};
};

// kill_timeout when unset: the generic kind's, and what the gitlab kind adds to
// gitlab-runner's shutdown_timeout so that gitlab-runner's own timeout ends first.
inline constexpr std::chrono::seconds generic_kill_timeout{10};
inline constexpr std::chrono::seconds gitlab_kill_margin{5};

// How long runwarden stays up once the runner is gone, answering the control API (the
// gitlab-runner wrapper's CheckStatus says `stopped`) until it is signalled or the time is up.
struct linger_policy {
  bool forever = false;
  std::chrono::milliseconds duration{0};  // when not forever; 0: exit at gone
  friend bool operator==(const linger_policy&, const linger_policy&) = default;
};

// The control plane: gRPC server, HTTP endpoints.
struct control_settings {
  // unix:///PATH or tcp://HOST:PORT; empty means default_control_socket(); "none" disables.
  std::string grpc_listen;
  // A file holding the bearer token every gRPC call must carry. Required for TCP on a
  // non-loopback address. Only the path is ever logged.
  std::string token_file;
  std::string tls_cert_file;  // both or neither; TCP only
  std::string tls_key_file;
  // HOST:PORT for /metrics, /healthz and /readyz; "none" disables.
  std::string http_listen = "127.0.0.1:9253";
  // `runwarden run` exits at gone (under systemd that is what stops the unit); `runwarden
  // wrapper` lingers forever, as gitlab-runner's wrapper does.
  linger_policy linger_after_gone;
  // Deliberately long names: a TCP listener off loopback without a token lets anyone who
  // reaches it stop the runner. The first opens the wrapper API (as gitlab-runner's wrapper,
  // which has no authentication, is); the second also opens runwarden.v1.Warden's Shutdown
  // and ForceShutdown, and only together with the first.
  bool insecure_unauthenticated_wrapper_api = false;
  bool insecure_unauthenticated_warden_shutdown = false;
};

// Which cloud's warnings the lifecycle watcher follows (issues 6 and 21). `detect` ("auto"
// in the file) is resolved to one of the others at start (src/app/cloud_detection.hpp).
enum class cloud_provider : std::uint8_t { none, aws, azure, gcp, detect };

struct cloud_settings {
  cloud_provider provider = cloud_provider::none;
};

// The EC2 instance metadata service (IMDSv2) and what its pages mean for the runner.
struct aws_settings {
  // Empty: AWS_EC2_METADATA_SERVICE_ENDPOINT, else http://169.254.169.254.
  std::optional<std::string> imds_endpoint;
  std::chrono::milliseconds poll_interval{std::chrono::seconds{1}};
  lifecycle_watch_policy watch;  // drain states, spot safety margin, rebalance action
  // How often the spot notice and rebalance pages are read (at most once a poll).
  std::chrono::milliseconds spot_poll_interval{std::chrono::seconds{5}};
  bool imds_v1_fallback = false;  // read without a token when none can be had
  // Terminate hooks: runwarden heartbeats and completes the one its drain answers.
  bool complete_lifecycle_hooks = true;
  std::optional<std::string> lifecycle_hook;  // empty: the group's only terminate hook
  // Launch hooks: CONTINUE once the runner is ready, ABANDON past this wait.
  std::optional<std::string> launch_hook;  // empty: the group's only launch hook
  std::chrono::milliseconds launch_ready_timeout{std::chrono::minutes{10}};
  // EC2 scheduled maintenance events: how often their page is read (unset: never), and
  // what each event code does.
  std::optional<std::chrono::milliseconds> scheduled_events_interval{std::chrono::seconds{60}};
  scheduled_event_policy scheduled_events;
};

// Azure's Instance Metadata Service: Scheduled Events and what they mean for the runner.
struct azure_settings {
  std::optional<std::string> metadata_endpoint;  // empty: http://169.254.169.254
  // A Preempt gives as little as 30 s: Scheduled Events are read every second by default.
  std::chrono::milliseconds poll_interval{std::chrono::seconds{1}};
  azure_event_policy events;  // the margin before NotBefore; Reboot and Redeploy actions
};

// The Google Compute Engine metadata server and what its notices mean for the runner.
struct gcp_settings {
  // Empty: GCE_METADATA_HOST, else http://169.254.169.254.
  std::optional<std::string> metadata_endpoint;
  // The server's timeout_sec for a hanging GET: how long one wait lasts before it is asked
  // again. Nothing is missed meanwhile: a change ends a wait at once.
  std::chrono::seconds wait_timeout{std::chrono::minutes{5}};
  gcp_notice_policy notices;  // the deadlines of a preemption and a host maintenance
};

// Where the runner's job slots are published for the group's own scaling policies.
enum class metrics_publish : std::uint8_t { none, cloudwatch };

// Scaling the Auto Scaling group from this runner's own load. Off by default.
struct scaling_settings {
  bool enabled = false;
  // Job slots of the runner; empty: gitlab-runner's concurrent and limits, read from
  // runner.gitlab_config. policy.capacity is filled from whichever applies at start.
  std::optional<std::uint32_t> capacity;
  scaling_policy policy;
  // Job slots busy and total as CloudWatch metrics, for a target-tracking policy; works with
  // or without the scaler (enabled).
  metrics_publish publish = metrics_publish::none;
  std::chrono::milliseconds publish_interval{std::chrono::seconds{10}};
  std::string publish_namespace = "Runwarden";
};

// The journal: every input of the drain, recorded before it takes effect.
struct journal_settings {
  // Empty: /var/lib/runwarden for root, else $XDG_STATE_HOME/runwarden.
  std::string state_directory;
  std::uint32_t records_per_sync = 1;  // fsync after this many records; 1: every one
  // Past this size, outside a drain, the journal is rewritten as the few entries that
  // rebuild the present (journal_compaction.hpp).
  std::uint64_t compact_bytes = 1024 * 1024;
};

// How the whole run goes. A dry run (NTH's DRY_RUN) supervises and drains the runner as
// usual but sends no call that changes anything outside the machine: every such HTTP call
// (hook completion, unregistration, scaling, webhooks) is logged "dry run: ..." and answered
// as done without being sent (actors/http_port/dry_run_http_port.hpp).
struct run_settings {
  bool dry_run = false;
  // While jobs run, hold a logind delay lock for shutdown (actors/shutdown_inhibitor).
  bool inhibit_shutdown = true;
};

struct settings {
  run_settings run;
  runner_settings runner;
  restart_settings restart;
  // [runner] after_exit, on_give_up, recycle_*, idle_retire_after, retire_*.
  retirement_policy retirement;
  drain_settings drain;
  control_settings control;
  webhook_settings webhook;
  cloud_settings cloud;
  aws_settings aws;
  azure_settings azure;
  gcp_settings gcp;
  unregister_settings unregister;
  journal_settings journal;
  scaling_settings scaling;
  kubernetes_settings kubernetes;
  log_settings log;
};

}  // namespace runwarden

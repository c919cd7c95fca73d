// The whole file format: one row per key, binding it to a reader that stores into
// `settings`, then the checks that span keys, all in one place. A new key is one row here,
// its default in settings.hpp and its documentation in config/runwarden.toml. A key whose
// value is only a type and a range reads it in its row; the others have a named reader in
// config_values.cpp.

#include "src/config/config_schema.hpp"

#include <fmt/format.h>

#include <array>
#include <limits>

#include "src/config/config_aws_values.hpp"
#include "src/config/config_cloud_values.hpp"
#include "src/config/config_kubernetes_values.hpp"
#include "src/config/config_publish_values.hpp"
#include "src/config/config_retirement_values.hpp"
#include "src/config/config_scaling_values.hpp"
#include "src/config/config_unregister_values.hpp"
#include "src/config/config_values.hpp"
#include "src/config/config_webhook_values.hpp"
#include "src/runner/signal_names.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

constexpr std::array<std::string_view, 7> level_words{"trace", "debug",    "info", "warn",
                                                      "error", "critical", "off"};
// Past this many attempts a webhook only delays the report of a drain long over.
constexpr std::int64_t webhook_attempts_limit = 100;
constexpr std::string_view retry_wait_why =
    "a zero wait would spend every attempt on a receiver that is down";

// The whole file format, in the order config/runwarden.toml documents it.
constexpr key_spec schema[] = {
    {"runner", "kind", read_runner_kind},
    {"runner", "command", read_runner_command},
    {"runner", "output", read_runner_output},
    {"runner", "graceful_signal",
     [](config_value& value) {
       return store(expect_signal(value), value.config().runner.graceful_signal);
     }},
    {"runner", "forceful_signal",
     [](config_value& value) {
       return store(expect_signal(value), value.config().runner.forceful_signal);
     }},
    {"runner", "metrics_url", read_metrics_url},
    {"runner", "metrics_interval",
     [](config_value& value) {
       return store(value.expect_positive_duration("scrapes need time between them"),
                    value.config().runner.metrics_interval);
     }},
    {"runner", "metrics_interval_draining",
     [](config_value& value) {
       return store(value.expect_positive_duration("scrapes need time between them"),
                    value.config().runner.metrics_interval_draining);
     }},
    {"runner", "gitlab_config",
     [](config_value& value) {
       return store(value.expect_nonempty_string("leave the key out when there is none"),
                    value.config().runner.gitlab_config);
     }},
    {"runner", "after_exit", read_runner_after_exit},
    {"runner", "on_give_up", read_runner_on_give_up},
    {"runner", "recycle_after_jobs", read_runner_recycle_after_jobs},
    {"runner", "recycle_after_uptime", read_runner_recycle_after_uptime},
    {"runner", "recycle_disk_path", read_runner_recycle_disk_path},
    {"runner", "recycle_disk_percent", read_runner_recycle_disk_percent},
    {"runner", "idle_retire_after", read_runner_idle_retire_after},
    {"runner", "retire_command", read_runner_retire_command},
    {"runner", "retire_decrement_capacity", read_runner_retire_decrement_capacity},
    {"restart", "policy", read_restart_policy},
    {"restart", "backoff_initial",
     [](config_value& value) {
       return store(value.expect_positive_duration(
                        "a zero backoff would restart a failing runner in a tight loop"),
                    value.config().restart.backoff_initial);
     }},
    {"restart", "backoff_max",
     [](config_value& value) {
       return store(value.expect_duration(), value.config().restart.backoff_max);
     }},
    {"restart", "jitter", read_restart_jitter},
    {"restart", "budget_restarts",
     [](config_value& value) {
       return store(value.expect_integer(0, std::numeric_limits<std::uint32_t>::max()),
                    value.config().restart.budget_restarts_max);
     }},
    {"restart", "budget_window",
     [](config_value& value) {
       return store(value.expect_positive_duration("the budget counts restarts within this window"),
                    value.config().restart.budget_window);
     }},
    {"drain", "timeout", read_drain_timeout},
    {"drain", "kill_timeout",
     [](config_value& value) {
       return store(value.expect_positive_duration(
                        "the runner needs a moment to exit between the forceful signal and "
                        "SIGKILL"),
                    value.config().drain.kill_timeout);
     }},
    {"drain", "start_grace", read_drain_start_grace},
    {"drain", "unregister_alongside_below", read_drain_unregister_alongside_below},
    {"control", "grpc_listen", read_grpc_listen},
    {"control", "token_file",
     [](config_value& value) {
       return store(value.expect_nonempty_string("leave the key out for no token"),
                    value.config().control.token_file);
     }},
    {"control", "tls_cert_file",
     [](config_value& value) {
       return store(value.expect_nonempty_string("leave the key out for no TLS"),
                    value.config().control.tls_cert_file);
     }},
    {"control", "tls_key_file",
     [](config_value& value) {
       return store(value.expect_nonempty_string("leave the key out for no TLS"),
                    value.config().control.tls_key_file);
     }},
    {"control", "http_listen", read_http_listen},
    {"control", "linger_after_gone", read_linger_after_gone},
    {"control", "insecure_unauthenticated_wrapper_api",
     [](config_value& value) {
       return store(value.expect_bool(),
                    value.config().control.insecure_unauthenticated_wrapper_api);
     }},
    {"control", "insecure_unauthenticated_warden_shutdown",
     [](config_value& value) {
       return store(value.expect_bool(),
                    value.config().control.insecure_unauthenticated_warden_shutdown);
     }},
    {"webhook", "url", read_webhook_url},
    {"webhook", "secret_file",
     [](config_value& value) {
       return store(value.expect_nonempty_string("leave the key out for unsigned requests"),
                    value.config().webhook.secret_file);
     }},
    {"webhook", "allow_link_local",
     [](config_value& value) {
       return store(value.expect_bool(), value.config().webhook.allow_link_local);
     }},
    {"webhook", "timeout",
     [](config_value& value) {
       return store(value.expect_positive_duration("each attempt needs time to connect"),
                    value.config().webhook.timeout);
     }},
    {"webhook", "retry_initial",
     [](config_value& value) {
       return store(value.expect_positive_duration(retry_wait_why),
                    value.config().webhook.retry_initial);
     }},
    {"webhook", "retry_max",
     [](config_value& value) {
       return store(value.expect_positive_duration(retry_wait_why),
                    value.config().webhook.retry_max);
     }},
    {"webhook", "attempts_max",
     [](config_value& value) {
       return store(value.expect_integer(1, webhook_attempts_limit),
                    value.config().webhook.attempts_max);
     }},
    {"webhook", "template_file", read_webhook_template_file},
    {"webhook", "headers", read_webhook_headers},
    {"webhook", "proxy_from_environment",
     [](config_value& value) {
       return store(value.expect_bool(), value.config().webhook.proxy_from_environment);
     }},
    {"webhook.templates", "drain_started", read_webhook_template},
    {"webhook.templates", "gone", read_webhook_template},
    {"webhook.templates", "unregistration_failing", read_webhook_template},
    {"webhook.templates", "hook_expiring", read_webhook_template},
    {"webhook.templates", "restart_budget_spent", read_webhook_template},
    {"cloud", "provider", read_cloud_provider},
    {"aws", "provider", read_aws_provider},
    {"aws", "imds_endpoint", read_aws_imds_endpoint},
    {"aws", "poll_interval", read_aws_poll_interval},
    {"aws", "spot_poll_interval", read_aws_spot_poll_interval},
    {"aws", "drain_states", read_aws_drain_states},
    {"aws", "spot_safety_margin", read_aws_spot_safety_margin},
    {"aws", "rebalance", read_aws_rebalance},
    {"aws", "imds_v1_fallback",
     [](config_value& value) {
       return store(value.expect_bool(), value.config().aws.imds_v1_fallback);
     }},
    {"aws", "complete_lifecycle_hooks",
     [](config_value& value) {
       return store(value.expect_bool(), value.config().aws.complete_lifecycle_hooks);
     }},
    {"aws", "lifecycle_hook",
     [](config_value& value) {
       return store(value.expect_nonempty_string(
                        "leave the key out to answer the group's only terminate hook"),
                    value.config().aws.lifecycle_hook);
     }},
    {"aws", "launch_hook",
     [](config_value& value) {
       return store(
           value.expect_nonempty_string("leave the key out to answer the group's only launch hook"),
           value.config().aws.launch_hook);
     }},
    {"aws", "scheduled_events_interval", read_aws_scheduled_events_interval},
    {"aws", "scheduled_event_margin",
     [](config_value& value) {
       return store(value.expect_duration(), value.config().aws.scheduled_events.margin);
     }},
    {"aws", "scheduled_event_lead_time",
     [](config_value& value) {
       return store(value.expect_duration(), value.config().aws.scheduled_events.lead_time);
     }},
    {"aws.scheduled_events", "instance-stop", read_scheduled_instance_stop},
    {"aws.scheduled_events", "instance-retirement", read_scheduled_instance_retirement},
    {"aws.scheduled_events", "instance-reboot", read_scheduled_instance_reboot},
    {"aws.scheduled_events", "system-reboot", read_scheduled_system_reboot},
    {"aws.scheduled_events", "system-maintenance", read_scheduled_system_maintenance},
    {"aws.scheduled_events", "other", read_scheduled_other_codes},
    {"aws", "launch_ready_timeout",
     [](config_value& value) {
       return store(value.expect_positive_duration("the runner needs time to start"),
                    value.config().aws.launch_ready_timeout);
     }},
    {"azure", "metadata_endpoint", read_azure_metadata_endpoint},
    {"azure", "poll_interval", read_azure_poll_interval},
    {"azure", "notice_margin",
     [](config_value& value) {
       return store(value.expect_duration(), value.config().azure.events.margin);
     }},
    {"azure", "reboot", read_azure_reboot},
    {"azure", "redeploy", read_azure_redeploy},
    {"gcp", "metadata_endpoint", read_gcp_metadata_endpoint},
    {"gcp", "wait_timeout", read_gcp_wait_timeout},
    {"gcp", "preemption_deadline",
     [](config_value& value) {
       return store(value.expect_positive_duration("a zero deadline would kill running jobs "
                                                   "at once"),
                    value.config().gcp.notices.preemption_deadline);
     }},
    {"gcp", "host_maintenance_deadline",
     [](config_value& value) {
       return store(value.expect_positive_duration("a zero deadline would kill running jobs "
                                                   "at once"),
                    value.config().gcp.notices.host_maintenance_deadline);
     }},
    {"log", "level",
     [](config_value& value) {
       return store(value.expect_word(level_words), value.config().log.level);
     }},
    {"log", "format", read_log_format},
    {"journal", "state_directory",
     [](config_value& value) {
       return store(value.expect_nonempty_string("leave the key out for the default"),
                    value.config().journal.state_directory);
     }},
    {"journal", "records_per_sync",
     [](config_value& value) {
       return store(value.expect_integer(1, 4096), value.config().journal.records_per_sync);
     }},
    {"journal", "compact_bytes",
     [](config_value& value) {
       return store(value.expect_integer(4096, std::int64_t{1} << 40),
                    value.config().journal.compact_bytes);
     }},
    {"unregister", "kind", read_unregister_kind},
    {"unregister", "timeout", read_unregister_timeout},
    {"unregister", "retry_initial", read_unregister_retry_initial},
    {"unregister", "retry_max", read_unregister_retry_max},
    {"unregister", "attempts_max", read_unregister_attempts_max},
    {"unregister", "alert_after", read_unregister_alert_after},
    {"unregister.gitlab", "name", read_gitlab_unregister_name},
    {"unregister.gitlab", "url", read_gitlab_unregister_url},
    {"unregister.gitlab", "token_file", read_gitlab_unregister_token_file},
    {"unregister.gitlab", "system_id_file", read_gitlab_unregister_system_id_file},
    {"unregister.github", "api_url", read_github_unregister_api_url},
    {"unregister.github", "scope", read_github_unregister_scope},
    {"unregister.github", "owner", read_github_unregister_owner},
    {"unregister.github", "repo", read_github_unregister_repo},
    {"unregister.github", "org", read_github_unregister_org},
    {"unregister.github", "enterprise", read_github_unregister_enterprise},
    {"unregister.github", "runner_name", read_github_unregister_runner_name},
    {"unregister.github", "token_file", read_github_unregister_token_file},
    {"scaling", "enabled", read_scaling_enabled},
    {"scaling", "capacity", read_scaling_capacity},
    {"scaling", "window", read_scaling_window},
    {"scaling", "dip_tolerance", read_scaling_dip_tolerance},
    {"scaling", "step", read_scaling_step},
    {"scaling", "ceiling", read_scaling_ceiling},
    {"scaling", "idle_threshold", read_scaling_idle_threshold},
    {"scaling", "cooldown", read_scaling_cooldown},
    {"scaling", "honor_cooldown", read_scaling_honor_cooldown},
    {"scaling", "jitter", read_scaling_jitter},
    {"scaling", "protect_while_busy", read_scaling_protect_while_busy},
    {"scaling", "protection_release", read_scaling_protection_release},
    {"scaling", "protection_interval_min", read_scaling_protection_interval_min},
    {"scaling", "retry_initial", read_scaling_retry_initial},
    {"scaling", "retry_max", read_scaling_retry_max},
    {"scaling", "scaler", read_scaling_scaler},
    {"scaling", "publish", read_scaling_publish},
    {"scaling", "publish_interval", read_scaling_publish_interval},
    {"scaling", "publish_namespace", read_scaling_publish_namespace},
    {"run", "dry_run",
     [](config_value& value) { return store(value.expect_bool(), value.config().run.dry_run); }},
    {"run", "inhibit_shutdown",
     [](config_value& value) {
       return store(value.expect_bool(), value.config().run.inhibit_shutdown);
     }},
    {"kubernetes", "enabled", read_kubernetes_enabled},
    {"kubernetes", "pod_name", read_kubernetes_pod_name},
    {"kubernetes", "namespace", read_kubernetes_namespace},
    {"kubernetes", "service_account_directory", read_kubernetes_service_account_directory},
    {"kubernetes", "api_url", read_kubernetes_api_url},
    {"kubernetes", "idle_deletion_cost", read_kubernetes_idle_deletion_cost},
    {"kubernetes", "idle_hold_off", read_kubernetes_idle_hold_off},
    {"kubernetes", "patch_attempts", read_kubernetes_patch_attempts},
    {"kubernetes", "retry_initial", read_kubernetes_retry_initial},
    {"kubernetes", "retry_max", read_kubernetes_retry_max},
};

// gitlab-runner gives its signals fixed meanings, so choosing them only makes sense for the
// generic kind. A kind guessed from the command is checked later, once flags are applied.
void check_signals_allowed(config_reader& reader) {
  const std::optional<runner_kind_name> name = reader.config().runner.kind;
  if (!name || kind_of(*name).signals_configurable) return;
  const runner_kind& kind = kind_of(*name);
  for (const std::string_view key : {"runner.graceful_signal", "runner.forceful_signal"}) {
    const std::optional<std::uint32_t> line = reader.accepted_line(key);
    if (!line) continue;
    reader.report(*line, key,
                  fmt::format("cannot be set for kind \"{}\", whose signals are fixed ({} drains, "
                              "{} aborts); use kind = \"generic\" to choose signals",
                              kind.text, signal_name(kind.graceful_signal),
                              signal_name(kind.forceful_signal)));
  }
}

struct keyed_duration {
  std::string_view key;
  std::chrono::milliseconds value;
};

// A first wait longer than the longest wait. Reported on `initial` when the document sets
// it, else on `max`; skipped when either was refused, since the comparison would then be
// against a default.
void check_order(config_reader& reader, keyed_duration initial, keyed_duration max) {
  if (initial.value <= max.value) return;
  if (reader.rejected(initial.key) || reader.rejected(max.key)) return;
  const std::string initial_text = format_duration(initial.value);
  const std::string max_text = format_duration(max.value);
  if (const std::optional<std::uint32_t> line = reader.accepted_line(initial.key)) {
    reader.report(*line, initial.key,
                  fmt::format("{} is longer than {} ({})", initial_text, max.key, max_text));
    return;
  }
  reader.report(reader.accepted_line(max.key).value_or(0), max.key,
                fmt::format("{} is shorter than {} ({})", max_text, initial.key, initial_text));
}

// TLS takes a certificate and its key together. Reported on the one given, naming the one
// missing; skipped when either was refused, since that already has its error.
void check_tls_pair(config_reader& reader) {
  const control_settings& control = reader.config().control;
  if (control.tls_cert_file.empty() == control.tls_key_file.empty()) return;
  if (reader.rejected("control.tls_cert_file") || reader.rejected("control.tls_key_file")) return;
  const bool has_cert = !control.tls_cert_file.empty();
  const std::string_view given = has_cert ? "control.tls_cert_file" : "control.tls_key_file";
  const std::string_view missing = has_cert ? "control.tls_key_file" : "control.tls_cert_file";
  reader.report(reader.accepted_line(given).value_or(0), given,
                fmt::format("needs {} as well (TLS takes both files, or neither)", missing));
}

// Opening the Warden's shutdown calls without a token only makes sense, and is only allowed,
// on top of opening the wrapper API: the operator opts in to both, knowingly.
void check_unauthenticated_pair(config_reader& reader) {
  const control_settings& control = reader.config().control;
  if (!control.insecure_unauthenticated_warden_shutdown ||
      control.insecure_unauthenticated_wrapper_api)
    return;
  constexpr std::string_view key = "control.insecure_unauthenticated_warden_shutdown";
  reader.report(reader.accepted_line(key).value_or(0), key,
                "needs control.insecure_unauthenticated_wrapper_api = true as well (the "
                "Warden's shutdown calls are opened only on top of the wrapper API)");
}

// Every check that spans keys, run once each key has been read on its own.
void check_across_keys(config_reader& reader) {
  check_unauthenticated_pair(reader);
  check_signals_allowed(reader);
  check_cloud_provider_keys(reader);
  check_scheduled_event_keys(reader);
  const restart_settings& restart = reader.config().restart;
  check_order(reader, {"restart.backoff_initial", restart.backoff_initial},
              {"restart.backoff_max", restart.backoff_max});
  const webhook_settings& webhook = reader.config().webhook;
  check_order(reader, {"webhook.retry_initial", webhook.retry_initial},
              {"webhook.retry_max", webhook.retry_max});
  check_tls_pair(reader);
  const unregister_settings& unregister = reader.config().unregister;
  check_order(reader, {"unregister.retry_initial", unregister.retry_initial},
              {"unregister.retry_max", unregister.retry_max});
  check_unregister_keys(reader);
  const scaling_policy& scaling = reader.config().scaling.policy;
  check_order(reader, {"scaling.retry_initial", scaling.retry_initial},
              {"scaling.retry_max", scaling.retry_max});
  check_scaling_keys(reader);
  check_publish_keys(reader);
  check_retirement_keys(reader);
  const pod_annotation_policy& pod = reader.config().kubernetes.policy;
  check_order(reader, {"kubernetes.retry_initial", pod.retry_initial},
              {"kubernetes.retry_max", pod.retry_max});
}

}  // namespace

config_result read_config(const toml::table& root, std::string_view source_name, settings base,
                          config_labels labels) {
  config_reader reader{schema, source_name, std::move(base), std::move(labels)};
  reader.read(root);
  check_across_keys(reader);
  return std::move(reader).finish();
}

}  // namespace runwarden

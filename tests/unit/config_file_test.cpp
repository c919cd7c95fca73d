// The config reader is tested through its text form: each table row is a small TOML
// document with the settings it must give, or the exact error lines it must give, so the
// file, line, key and wording of every message are pinned. File-level cases (missing,
// directory, unreadable) use a scratch directory, and the shipped config/runwarden.toml
// must parse to exactly the defaults in settings.hpp.

#include "src/config/config_file.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace std::chrono_literals;
using runwarden::config_result;
using runwarden::linger_policy;
using runwarden::runner_kind_name;
using runwarden::settings;

struct good_config {
  std::string text;
  std::function<bool(const settings&)> holds;
};

struct bad_config {
  std::string text;
  std::vector<std::string> errors;
};

config_result parse(const std::string& text) {
  return runwarden::parse_config_text(text, "test.toml");
}

// Every field against settings{}, so a default that moves fails here.
void check_defaults(const settings& loaded) {
  const settings defaults;
  CHECK(loaded.runner.kind == defaults.runner.kind);
  CHECK(loaded.runner.command == defaults.runner.command);
  CHECK(loaded.runner.output == defaults.runner.output);
  CHECK(loaded.runner.graceful_signal == defaults.runner.graceful_signal);
  CHECK(loaded.runner.forceful_signal == defaults.runner.forceful_signal);
  CHECK(loaded.restart.type == defaults.restart.type);
  CHECK(loaded.restart.backoff_initial == defaults.restart.backoff_initial);
  CHECK(loaded.restart.backoff_max == defaults.restart.backoff_max);
  CHECK(loaded.restart.jitter == defaults.restart.jitter);
  CHECK(loaded.restart.budget_restarts_max == defaults.restart.budget_restarts_max);
  CHECK(loaded.restart.budget_window == defaults.restart.budget_window);
  CHECK(loaded.drain.timeout == defaults.drain.timeout);
  CHECK(loaded.drain.kill_timeout == defaults.drain.kill_timeout);
  CHECK(loaded.control.grpc_listen == defaults.control.grpc_listen);
  CHECK(loaded.control.token_file == defaults.control.token_file);
  CHECK(loaded.control.tls_cert_file == defaults.control.tls_cert_file);
  CHECK(loaded.control.tls_key_file == defaults.control.tls_key_file);
  CHECK(loaded.control.linger_after_gone == defaults.control.linger_after_gone);
  CHECK(loaded.control.insecure_unauthenticated_wrapper_api ==
        defaults.control.insecure_unauthenticated_wrapper_api);
  CHECK(loaded.control.insecure_unauthenticated_warden_shutdown ==
        defaults.control.insecure_unauthenticated_warden_shutdown);
  CHECK(loaded.control.http_listen == defaults.control.http_listen);
  CHECK(loaded.webhook.url == defaults.webhook.url);
  CHECK(loaded.webhook.secret_file == defaults.webhook.secret_file);
  CHECK(loaded.webhook.allow_link_local == defaults.webhook.allow_link_local);
  CHECK(loaded.webhook.timeout == defaults.webhook.timeout);
  CHECK(loaded.webhook.retry_initial == defaults.webhook.retry_initial);
  CHECK(loaded.webhook.retry_max == defaults.webhook.retry_max);
  CHECK(loaded.webhook.attempts_max == defaults.webhook.attempts_max);
  CHECK(loaded.drain.unregister_alongside_below == defaults.drain.unregister_alongside_below);
  CHECK(loaded.cloud.provider == defaults.cloud.provider);
  CHECK(loaded.aws.imds_endpoint == defaults.aws.imds_endpoint);
  CHECK(loaded.aws.poll_interval == defaults.aws.poll_interval);
  CHECK(loaded.aws.watch.drain_states == defaults.aws.watch.drain_states);
  CHECK(loaded.aws.watch.spot_safety_margin == defaults.aws.watch.spot_safety_margin);
  CHECK(loaded.aws.watch.rebalance == defaults.aws.watch.rebalance);
  CHECK(loaded.aws.imds_v1_fallback == defaults.aws.imds_v1_fallback);
  CHECK(loaded.aws.scheduled_events_interval == defaults.aws.scheduled_events_interval);
  CHECK(loaded.aws.scheduled_events == defaults.aws.scheduled_events);
  CHECK(loaded.azure.metadata_endpoint == defaults.azure.metadata_endpoint);
  CHECK(loaded.azure.poll_interval == defaults.azure.poll_interval);
  CHECK(loaded.azure.events == defaults.azure.events);
  CHECK(loaded.gcp.metadata_endpoint == defaults.gcp.metadata_endpoint);
  CHECK(loaded.gcp.wait_timeout == defaults.gcp.wait_timeout);
  CHECK(loaded.gcp.notices == defaults.gcp.notices);
  CHECK(loaded.log.level == defaults.log.level);
  CHECK(loaded.log.format == defaults.log.format);
  CHECK(loaded.run.dry_run == defaults.run.dry_run);
  CHECK(loaded.run.inhibit_shutdown == defaults.run.inhibit_shutdown);
}

// A scratch directory, removed at the end of the test.
class scratch_directory {
 public:
  scratch_directory()
      : path_(std::filesystem::temp_directory_path() /
              ("runwarden-config-test-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~scratch_directory() {
    std::error_code ignored;
    std::filesystem::permissions(path_ / "locked.toml", std::filesystem::perms::owner_all, ignored);
    std::filesystem::remove_all(path_, ignored);
  }
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;

  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream{file} << text;
    return file;
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// One key set per row, with what the settings must then hold.
const std::vector<good_config> good_values{
    {"runner.kind = \"gitlab\"",
     [](const settings& loaded) { return loaded.runner.kind == runner_kind_name::gitlab; }},
    {"runner.kind = \"generic\"",
     [](const settings& loaded) { return loaded.runner.kind == runner_kind_name::generic; }},
    {"runner.command = [\"gitlab-runner\", \"run\", \"\", \"--a b\"]",
     [](const settings& loaded) {
       return loaded.runner.command ==
              std::vector<std::string>{"gitlab-runner", "run", "", "--a b"};
     }},
    {"runner.command = [\"/bin/worker\"]",
     [](const settings& loaded) {
       return loaded.runner.command == std::vector<std::string>{"/bin/worker"};
     }},
    {"runner.output = \"inherit\"",
     [](const settings& loaded) {
       return loaded.runner.output == runwarden::output_mode::inherit;
     }},
    {"runner.output = \"log\"",
     [](const settings& loaded) { return loaded.runner.output == runwarden::output_mode::log; }},
    {"runner.graceful_signal = \"SIGINT\"",
     [](const settings& loaded) { return loaded.runner.graceful_signal == SIGINT; }},
    {"runner.graceful_signal = \"usr1\"",
     [](const settings& loaded) { return loaded.runner.graceful_signal == SIGUSR1; }},
    {"runner.graceful_signal = 3",
     [](const settings& loaded) { return loaded.runner.graceful_signal == SIGQUIT; }},
    {"runner.forceful_signal = \"KILL\"",
     [](const settings& loaded) { return loaded.runner.forceful_signal == SIGKILL; }},
    {"runner.forceful_signal = \"15\"",
     [](const settings& loaded) { return loaded.runner.forceful_signal == SIGTERM; }},
    {"runner.kind = \"generic\"\nrunner.graceful_signal = \"SIGHUP\"",
     [](const settings& loaded) { return loaded.runner.graceful_signal == SIGHUP; }},
    {"restart.policy = \"permanent\"",
     [](const settings& loaded) {
       return loaded.restart.type == runwarden::restart_type::permanent;
     }},
    {"restart.policy = \"transient\"",
     [](const settings& loaded) {
       return loaded.restart.type == runwarden::restart_type::transient;
     }},
    {"restart.policy = \"temporary\"",
     [](const settings& loaded) {
       return loaded.restart.type == runwarden::restart_type::temporary;
     }},
    {"restart.backoff_initial = \"250ms\"",
     [](const settings& loaded) { return loaded.restart.backoff_initial == 250ms; }},
    {"restart.backoff_initial = \"60s\"",
     [](const settings& loaded) { return loaded.restart.backoff_initial == 60s; }},
    {"restart.backoff_max = \"1h30m\"",
     [](const settings& loaded) { return loaded.restart.backoff_max == 90min; }},
    {"restart.backoff_max = \"1s\"",
     [](const settings& loaded) { return loaded.restart.backoff_max == 1s; }},
    {"restart.jitter = 0.5", [](const settings& loaded) { return loaded.restart.jitter == 0.5; }},
    {"restart.jitter = 0", [](const settings& loaded) { return loaded.restart.jitter == 0.0; }},
    {"restart.jitter = 1", [](const settings& loaded) { return loaded.restart.jitter == 1.0; }},
    {"restart.jitter = 1.0", [](const settings& loaded) { return loaded.restart.jitter == 1.0; }},
    {"restart.budget_restarts = 0",
     [](const settings& loaded) { return loaded.restart.budget_restarts_max == 0; }},
    {"restart.budget_restarts = 4294967295",
     [](const settings& loaded) { return loaded.restart.budget_restarts_max == 4294967295u; }},
    {"restart.budget_window = \"1h\"",
     [](const settings& loaded) { return loaded.restart.budget_window == 1h; }},
    {"drain.timeout = \"none\"", [](const settings& loaded) { return !loaded.drain.timeout; }},
    {"drain.timeout = \"2h\"", [](const settings& loaded) { return loaded.drain.timeout == 2h; }},
    {"drain.timeout = \"1ms\"", [](const settings& loaded) { return loaded.drain.timeout == 1ms; }},
    {"drain.kill_timeout = \"30s\"",
     [](const settings& loaded) { return loaded.drain.kill_timeout == 30s; }},
    {"drain.start_grace = \"1m\"",
     [](const settings& loaded) { return loaded.drain.start_grace == 1min; }},
    {"drain.unregister_alongside_below = \"none\"",
     [](const settings& loaded) { return !loaded.drain.unregister_alongside_below; }},
    {"drain.unregister_alongside_below = \"3m\"",
     [](const settings& loaded) { return loaded.drain.unregister_alongside_below == 3min; }},
    {"control.linger_after_gone = \"forever\"",
     [](const settings& loaded) { return loaded.control.linger_after_gone.forever; }},
    {"control.linger_after_gone = \"10m\"",
     [](const settings& loaded) {
       return !loaded.control.linger_after_gone.forever &&
              loaded.control.linger_after_gone.duration == 10min;
     }},
    {"control.linger_after_gone = \"0s\"",
     [](const settings& loaded) { return loaded.control.linger_after_gone == linger_policy{}; }},
    {"control.insecure_unauthenticated_wrapper_api = true",
     [](const settings& loaded) { return loaded.control.insecure_unauthenticated_wrapper_api; }},
    {"control.grpc_listen = \"none\"",
     [](const settings& loaded) { return loaded.control.grpc_listen == "none"; }},
    {"control.grpc_listen = \"unix:///run/runwarden/control.sock\"",
     [](const settings& loaded) {
       return loaded.control.grpc_listen == "unix:///run/runwarden/control.sock";
     }},
    {"control.grpc_listen = \"tcp://0.0.0.0:7701\"",
     [](const settings& loaded) { return loaded.control.grpc_listen == "tcp://0.0.0.0:7701"; }},
    {"control.grpc_listen = \"tcp://[::1]:0\"",
     [](const settings& loaded) { return loaded.control.grpc_listen == "tcp://[::1]:0"; }},
    {"control.token_file = \"/etc/runwarden/token\"",
     [](const settings& loaded) { return loaded.control.token_file == "/etc/runwarden/token"; }},
    {"[control]\ntls_cert_file = \"cert.pem\"\ntls_key_file = \"key.pem\"",
     [](const settings& loaded) {
       return loaded.control.tls_cert_file == "cert.pem" &&
              loaded.control.tls_key_file == "key.pem";
     }},
    {"control.http_listen = \"none\"",
     [](const settings& loaded) { return loaded.control.http_listen == "none"; }},
    {"control.http_listen = \"0.0.0.0:65535\"",
     [](const settings& loaded) { return loaded.control.http_listen == "0.0.0.0:65535"; }},
    {"control.http_listen = \"[::]:9253\"",
     [](const settings& loaded) { return loaded.control.http_listen == "[::]:9253"; }},
    {"control.http_listen = \"metrics.internal:0\"",
     [](const settings& loaded) { return loaded.control.http_listen == "metrics.internal:0"; }},
    {"webhook.url = \"https://ci.example.com/hooks/runwarden?team=a%20b\"",
     [](const settings& loaded) {
       return loaded.webhook.url == "https://ci.example.com/hooks/runwarden?team=a%20b";
     }},
    {"webhook.url = \"http://user:pass@[fd00::1]:8080\"",
     [](const settings& loaded) {
       return loaded.webhook.url == "http://user:pass@[fd00::1]:8080";
     }},
    {"webhook.secret_file = \"/etc/runwarden/webhook-secret\"",
     [](const settings& loaded) {
       return loaded.webhook.secret_file == "/etc/runwarden/webhook-secret";
     }},
    {"webhook.allow_link_local = true",
     [](const settings& loaded) { return loaded.webhook.allow_link_local; }},
    {"webhook.allow_link_local = false",
     [](const settings& loaded) { return !loaded.webhook.allow_link_local; }},
    {"webhook.timeout = \"2.5s\"",
     [](const settings& loaded) { return loaded.webhook.timeout == 2500ms; }},
    {"[webhook]\nretry_initial = \"30s\"\nretry_max = \"30s\"",
     [](const settings& loaded) {
       return loaded.webhook.retry_initial == 30s && loaded.webhook.retry_max == 30s;
     }},
    {"webhook.retry_max = \"1h\"",
     [](const settings& loaded) { return loaded.webhook.retry_max == 1h; }},
    {"webhook.attempts_max = 1",
     [](const settings& loaded) { return loaded.webhook.attempts_max == 1; }},
    {"webhook.attempts_max = 100",
     [](const settings& loaded) { return loaded.webhook.attempts_max == 100; }},
    {"log.level = \"trace\"", [](const settings& loaded) { return loaded.log.level == "trace"; }},
    {"log.level = \"critical\"",
     [](const settings& loaded) { return loaded.log.level == "critical"; }},
    {"log.level = \"off\"", [](const settings& loaded) { return loaded.log.level == "off"; }},
    {"run.dry_run = true", [](const settings& loaded) { return loaded.run.dry_run; }},
    {"run.inhibit_shutdown = false",
     [](const settings& loaded) { return !loaded.run.inhibit_shutdown; }},
    {"log.format = \"json\"",
     [](const settings& loaded) { return loaded.log.format == runwarden::log_format::json; }},
    {"log.format = \"text\"",
     [](const settings& loaded) { return loaded.log.format == runwarden::log_format::text; }},
    {"[restart]\nbudget_restarts = 10\nbudget_window = \"10m\"",
     [](const settings& loaded) {
       return loaded.restart.budget_restarts_max == 10 && loaded.restart.budget_window == 10min;
     }},
    {"runner = { kind = \"gitlab\", command = [\"gitlab-runner\"] }",
     [](const settings& loaded) {
       return loaded.runner.kind == runner_kind_name::gitlab && loaded.runner.command.size() == 1;
     }},
};

// Well-typed values that no setting can take.
const std::vector<bad_config> bad_values{
    {"[runner]\nkind = \"gitlub\"",
     {"test.toml:2: runner.kind: unknown value \"gitlub\" (expected \"gitlab\" or "
      "\"generic\")"}},
    {"[runner]\nkind = \"GitLab\"",
     {"test.toml:2: runner.kind: unknown value \"GitLab\" (expected \"gitlab\" or "
      "\"generic\")"}},
    {"[runner]\n\ncommand = []",
     {"test.toml:3: runner.command: must not be empty (leave the key out to give the "
      "command after -- instead)"}},
    {"[runner]\ncommand = [\n  \"run\",\n  2,\n  true,\n]",
     {"test.toml:4: runner.command[1]: expected a string, got integer",
      "test.toml:5: runner.command[2]: expected a string, got boolean"}},
    {"[runner]\ncommand = [\"\", \"run\"]",
     {"test.toml:2: runner.command[0]: the executable must not be empty"}},
    {"[runner]\noutput = \"file\"",
     {"test.toml:2: runner.output: unknown value \"file\" (expected \"log\" or "
      "\"inherit\")"}},
    {"[runner]\ngraceful_signal = \"SIGFOO\"",
     {"test.toml:2: runner.graceful_signal: unknown signal \"SIGFOO\" (write a name such "
      "as \"SIGTERM\" or a number from 1 to 64)"}},
    {"[runner]\nforceful_signal = 65",
     {"test.toml:2: runner.forceful_signal: unknown signal \"65\" (write a name such as "
      "\"SIGTERM\" or a number from 1 to 64)"}},
    {"[runner]\nforceful_signal = 0",
     {"test.toml:2: runner.forceful_signal: unknown signal \"0\" (write a name such as "
      "\"SIGTERM\" or a number from 1 to 64)"}},
    {"[restart]\npolicy = \"always\"",
     {"test.toml:2: restart.policy: unknown value \"always\" (expected \"permanent\", "
      "\"transient\" or \"temporary\")"}},
    {"[restart]\nbackoff_initial = \"10\"",
     {"test.toml:2: restart.backoff_initial: missing unit in \"10\" (use ms, s, m or h)"}},
    {"[restart]\nbackoff_initial = \"0s\"",
     {"test.toml:2: restart.backoff_initial: must be greater than zero (a zero backoff "
      "would restart a failing runner in a tight loop)"}},
    {"[restart]\nbackoff_max = \"5x\"",
     {"test.toml:2: restart.backoff_max: unknown unit \"x\" in \"5x\" (use ms, s, m or h)"}},
    {"[restart]\nbackoff_max = \"-1s\"",
     {"test.toml:2: restart.backoff_max: negative duration \"-1s\" (durations are zero or "
      "more)"}},
    {"[restart]\njitter = 1.5",
     {"test.toml:2: restart.jitter: 1.5 is not between 0 and 1 (the fraction of each delay "
      "drawn at random)"}},
    {"[restart]\njitter = -0.1",
     {"test.toml:2: restart.jitter: -0.1 is not between 0 and 1 (the fraction of each "
      "delay drawn at random)"}},
    {"[restart]\njitter = nan",
     {"test.toml:2: restart.jitter: nan is not between 0 and 1 (the fraction of each delay "
      "drawn at random)"}},
    {"[restart]\nbudget_restarts = -1",
     {"test.toml:2: restart.budget_restarts: -1 is not between 0 and 4294967295"}},
    {"[restart]\nbudget_restarts = 4294967296",
     {"test.toml:2: restart.budget_restarts: 4294967296 is not between 0 and 4294967295"}},
    {"[restart]\nbudget_window = \"0\"",
     {"test.toml:2: restart.budget_window: must be greater than zero (the budget counts "
      "restarts within this window)"}},
    {"[drain]\ntimeout = \"0s\"",
     {"test.toml:2: drain.timeout: \"0s\" would kill running jobs at once; write \"none\" "
      "for no deadline or a positive duration such as \"2h\""}},
    {"[drain]\nstart_grace = \"61s\"",
     {"test.toml:2: drain.start_grace: must be at most 1m (it holds a drain's signal to a "
      "just-started runner, and a spot notice gives two minutes in all)"}},
    {"[drain]\nunregister_alongside_below = \"soon\"",
     {"test.toml:2: drain.unregister_alongside_below: \"soon\" is not a duration (write a "
      "number and a unit, such as \"10s\"); write \"none\" to always unregister after the "
      "stop"}},
    {"[drain]\ntimeout = \"never\"",
     {"test.toml:2: drain.timeout: \"never\" is not a duration (write a number and a unit, "
      "such as \"10s\"); write \"none\" for no deadline"}},
    {"[drain]\ntimeout = \"10\"",
     {"test.toml:2: drain.timeout: missing unit in \"10\" (use ms, s, m or h); write \"none\" "
      "for no deadline"}},
    {"[drain]\nkill_timeout = \"0ms\"",
     {"test.toml:2: drain.kill_timeout: must be greater than zero (the runner needs a "
      "moment to exit between the forceful signal and SIGKILL)"}},
    {"[control]\nlinger_after_gone = \"always\"",
     {"test.toml:2: control.linger_after_gone: \"always\" is not a duration (write a number "
      "and a unit, such as \"10s\"); write \"forever\", or \"0s\" to exit at gone"}},
    {"[control]\nlinger_after_gone = true",
     {"test.toml:2: control.linger_after_gone: expected \"forever\" or a duration such as "
      "\"10m\" (\"0s\": exit at gone), got boolean"}},
    {"[control]\ninsecure_unauthenticated_warden_shutdown = true",
     {"test.toml:2: control.insecure_unauthenticated_warden_shutdown: needs "
      "control.insecure_unauthenticated_wrapper_api = true as well (the Warden's shutdown "
      "calls are opened only on top of the wrapper API)"}},
    {"[drain]\nkill_timeout = \"1.5ms\"",
     {"test.toml:2: drain.kill_timeout: duration \"1.5ms\" is finer than a millisecond"}},
    {"[control]\ngrpc_listen = \"\"",
     {"test.toml:2: control.grpc_listen: must not be empty (leave the key out for the default "
      "socket, or write \"none\" for no gRPC server)"}},
    {"[control]\ngrpc_listen = \"/run/runwarden/control.sock\"",
     {"test.toml:2: control.grpc_listen: \"/run/runwarden/control.sock\" is neither "
      "unix:///PATH nor tcp://HOST:PORT"}},
    {"[control]\ngrpc_listen = \"unix://run/control.sock\"",
     {"test.toml:2: control.grpc_listen: a unix socket needs an absolute path: "
      "unix:///run/runwarden/control.sock"}},
    {"[control]\ngrpc_listen = \"tcp://127.0.0.1\"",
     {"test.toml:2: control.grpc_listen: missing port: tcp://HOST:PORT"}},
    {"[control]\ngrpc_listen = \"tcp://127.0.0.1:65536\"",
     {"test.toml:2: control.grpc_listen: port \"65536\" is not a number from 0 to 65535"}},
    {"[control]\ngrpc_listen = \"tcp://::1:7701\"",
     {"test.toml:2: control.grpc_listen: an IPv6 address is written in brackets: "
      "tcp://[::1]:7701"}},
    {"[control]\ntoken_file = \"\"",
     {"test.toml:2: control.token_file: must not be empty (leave the key out for no token)"}},
    {"[control]\ntls_key_file = \"\"",
     {"test.toml:2: control.tls_key_file: must not be empty (leave the key out for no TLS)"}},
    {"[control]\nhttp_listen = \"\"",
     {"test.toml:2: control.http_listen: must not be empty (write \"none\" for no HTTP "
      "endpoints)"}},
    {"[control]\nhttp_listen = \"9253\"",
     {"test.toml:2: control.http_listen: \"9253\" is not HOST:PORT or [IPv6]:PORT with a "
      "port from 0 to 65535, or \"none\""}},
    {"[control]\nhttp_listen = \"127.0.0.1:70000\"",
     {"test.toml:2: control.http_listen: \"127.0.0.1:70000\" is not HOST:PORT or "
      "[IPv6]:PORT with a port from 0 to 65535, or \"none\""}},
    {"[control]\nhttp_listen = \"::1:9253\"",
     {"test.toml:2: control.http_listen: \"::1:9253\" is not HOST:PORT or [IPv6]:PORT with "
      "a port from 0 to 65535, or \"none\""}},
    {"[control]\nhttp_listen = \"http://127.0.0.1:9253\"",
     {"test.toml:2: control.http_listen: \"http://127.0.0.1:9253\" is not HOST:PORT or "
      "[IPv6]:PORT with a port from 0 to 65535, or \"none\""}},
    {"[webhook]\nurl = \"\"",
     {"test.toml:2: webhook.url: must not be empty (leave the key out for no webhook)"}},
    // The URL itself is never quoted: webhook URLs often carry a secret.
    {"[webhook]\nurl = \"ftp://example.com/secret-token\"",
     {"test.toml:2: webhook.url: must start with http:// or https://"}},
    {"[webhook]\nurl = \"HTTPS://example.com\"",
     {"test.toml:2: webhook.url: must start with http:// or https://"}},
    {"[webhook]\nurl = \"https://example.com/a b\"",
     {"test.toml:2: webhook.url: must not contain spaces or control characters "
      "(percent-encode them: %20)"}},
    {"[webhook]\nurl = \"https://example.com/\\t\"",
     {"test.toml:2: webhook.url: must not contain spaces or control characters "
      "(percent-encode them: %20)"}},
    {"[webhook]\nurl = \"https:///path\"",
     {"test.toml:2: webhook.url: has no host (write a URL such as "
      "\"https://ci.example.com/runwarden\")"}},
    {"[webhook]\nurl = \"http://user@:80/\"",
     {"test.toml:2: webhook.url: has no host (write a URL such as "
      "\"https://ci.example.com/runwarden\")"}},
    {"[webhook]\nurl = \"http://[::1/\"",
     {"test.toml:2: webhook.url: has no host (write a URL such as "
      "\"https://ci.example.com/runwarden\")"}},
    {"[webhook]\nsecret_file = \"\"",
     {"test.toml:2: webhook.secret_file: must not be empty (leave the key out for unsigned "
      "requests)"}},
    {"[webhook]\ntimeout = \"0s\"",
     {"test.toml:2: webhook.timeout: must be greater than zero (each attempt needs time to "
      "connect)"}},
    {"[webhook]\nretry_initial = \"0\"",
     {"test.toml:2: webhook.retry_initial: must be greater than zero (a zero wait would "
      "spend every attempt on a receiver that is down)"}},
    {"[webhook]\nretry_max = \"0ms\"",
     {"test.toml:2: webhook.retry_max: must be greater than zero (a zero wait would spend "
      "every attempt on a receiver that is down)"}},
    {"[webhook]\nretry_max = \"1d\"",
     {"test.toml:2: webhook.retry_max: unknown unit \"d\" in \"1d\" (use ms, s, m or h)"}},
    {"[webhook]\nattempts_max = 0",
     {"test.toml:2: webhook.attempts_max: 0 is not between 1 and 100"}},
    {"[webhook]\nattempts_max = 101",
     {"test.toml:2: webhook.attempts_max: 101 is not between 1 and 100"}},
    {"[log]\nlevel = \"warning\"",
     {"test.toml:2: log.level: unknown value \"warning\" (expected \"trace\", \"debug\", "
      "\"info\", \"warn\", \"error\", \"critical\" or \"off\")"}},
    {"[log]\nformat = \"yaml\"",
     {"test.toml:2: log.format: unknown value \"yaml\" (expected \"text\" or \"json\")"}},
};

const std::vector<bad_config> wrong_types{
    {"[runner]\nkind = 1", {"test.toml:2: runner.kind: expected a string, got integer"}},
    {"[runner]\ncommand = \"gitlab-runner run\"",
     {"test.toml:2: runner.command: expected an array of strings, got string"}},
    {"[runner]\ngraceful_signal = 1.5",
     {"test.toml:2: runner.graceful_signal: expected a signal name such as \"SIGTERM\", got "
      "float"}},
    {"[restart]\nbackoff_max = 60",
     {"test.toml:2: restart.backoff_max: expected a duration string such as \"10s\", got "
      "integer"}},
    {"[restart]\njitter = \"0.2\"",
     {"test.toml:2: restart.jitter: expected a number from 0 to 1, got string"}},
    {"[restart]\nbudget_restarts = 5.0",
     {"test.toml:2: restart.budget_restarts: expected an integer, got float"}},
    {"[drain]\ntimeout = false",
     {"test.toml:2: drain.timeout: expected \"none\" or a duration string such as \"2h\", "
      "got boolean"}},
    {"[drain]\nkill_timeout = 1979-05-27",
     {"test.toml:2: drain.kill_timeout: expected a duration string such as \"10s\", got "
      "date"}},
    {"[log]\nlevel = [\"info\"]", {"test.toml:2: log.level: expected a string, got array"}},
    {"[log]\nformat = { kind = \"json\" }",
     {"test.toml:2: log.format: expected a string, got table"}},
    {"[control]\ngrpc_listen = false",
     {"test.toml:2: control.grpc_listen: expected a string, got boolean"}},
    {"[control]\nhttp_listen = 9253",
     {"test.toml:2: control.http_listen: expected a string, got integer"}},
    {"[control]\ntoken_file = [\"a\"]",
     {"test.toml:2: control.token_file: expected a string, got array"}},
    {"[webhook]\nurl = { host = \"x\" }",
     {"test.toml:2: webhook.url: expected a string, got table"}},
    {"[webhook]\nallow_link_local = \"true\"",
     {"test.toml:2: webhook.allow_link_local: expected true or false, got string"}},
    {"[webhook]\nallow_link_local = 1",
     {"test.toml:2: webhook.allow_link_local: expected true or false, got integer"}},
    {"[webhook]\ntimeout = 10",
     {"test.toml:2: webhook.timeout: expected a duration string such as \"10s\", got "
      "integer"}},
    {"[webhook]\nattempts_max = \"8\"",
     {"test.toml:2: webhook.attempts_max: expected an integer, got string"}},
    {"\n\nrunner = \"gitlab\"", {"test.toml:3: runner: expected a table, got string"}},
    {"[[drain]]\ntimeout = \"1h\"", {"test.toml:1: drain: expected a table, got array"}},
};

const std::vector<bad_config> unknown_keys{
    {"[runner]\nkind = \"gitlab\"\n\n\n\n\nkidn = \"gitlab\"",
     {"test.toml:7: runner.kidn: unknown key (did you mean runner.kind?)"}},
    {"[runner]\ncomand = [\"x\"]",
     {"test.toml:2: runner.comand: unknown key (did you mean runner.command?)"}},
    {"[restart]\nbackof_max = \"1s\"",
     {"test.toml:2: restart.backof_max: unknown key (did you mean restart.backoff_max?)"}},
    {"[restart]\nbudget_restart = 1",
     {"test.toml:2: restart.budget_restart: unknown key (did you mean "
      "restart.budget_restarts?)"}},
    {"[restart]\nkill_timeout = \"1s\"",
     {"test.toml:2: restart.kill_timeout: unknown key (did you mean drain.kill_timeout?)"}},
    {"kind = \"gitlab\"", {"test.toml:1: kind: unknown key (did you mean runner.kind?)"}},
    {"[runer]\nkind = \"gitlab\"", {"test.toml:1: runer: unknown table (did you mean runner?)"}},
    {"[logs]\nlevel = \"info\"", {"test.toml:1: logs: unknown table (did you mean log?)"}},
    {"[runner.env]\nA = \"1\"", {"test.toml:1: runner.env: unknown table"}},
    {"[runner]\ntotally_unrelated = 1", {"test.toml:2: runner.totally_unrelated: unknown key"}},
    {"[metrics]\nlisten = \"x\"", {"test.toml:1: metrics: unknown table"}},
    {"[webhooks]\nurl = \"https://x\"",
     {"test.toml:1: webhooks: unknown table (did you mean webhook?)"}},
    {"[control]\ngrpc-listen = \"none\"",
     {"test.toml:2: control.grpc-listen: unknown key (did you mean control.grpc_listen?)"}},
    {"[control]\ntls_cert = \"cert.pem\"", {"test.toml:2: control.tls_cert: unknown key"}},
    {"[webhook]\nattempts = 3", {"test.toml:2: webhook.attempts: unknown key"}},
    {"[drain]\nretry_max = \"1s\"",
     {"test.toml:2: drain.retry_max: unknown key (did you mean webhook.retry_max?)"}},
    // Two edits away still gets a suggestion, three do not.
    {"[log]\nlvl = \"info\"", {"test.toml:2: log.lvl: unknown key (did you mean log.level?)"}},
    {"[log]\nlv = \"info\"", {"test.toml:2: log.lv: unknown key"}},
    {"[drain]\nkill-timeout = \"1s\"",
     {"test.toml:2: drain.kill-timeout: unknown key (did you mean drain.kill_timeout?)"}},
};

// Values fine alone that contradict another key.
const std::vector<bad_config> cross_key_problems{
    {"[runner]\nkind = \"gitlab\"\ngraceful_signal = \"SIGTERM\"",
     {"test.toml:3: runner.graceful_signal: cannot be set for kind \"gitlab\", whose "
      "signals are fixed (SIGQUIT drains, SIGTERM aborts); use kind = \"generic\" to choose "
      "signals"}},
    {"[runner]\nforceful_signal = \"SIGKILL\"\nkind = \"gitlab\"",
     {"test.toml:2: runner.forceful_signal: cannot be set for kind \"gitlab\", whose "
      "signals are fixed (SIGQUIT drains, SIGTERM aborts); use kind = \"generic\" to choose "
      "signals"}},
    {"[restart]\nbackoff_initial = \"2m\"\nbackoff_max = \"1m\"",
     {"test.toml:2: restart.backoff_initial: 2m is longer than restart.backoff_max (1m)"}},
    {"[restart]\nbackoff_initial = \"90s\"",
     {"test.toml:2: restart.backoff_initial: 1m30s is longer than restart.backoff_max "
      "(1m)"}},
    {"[restart]\n\nbackoff_max = \"500ms\"",
     {"test.toml:3: restart.backoff_max: 500ms is shorter than restart.backoff_initial "
      "(1s)"}},
    // A rejected value is not compared against the other key's default.
    {"[restart]\nbackoff_initial = \"1m\"\nbackoff_max = \"10\"",
     {"test.toml:3: restart.backoff_max: missing unit in \"10\" (use ms, s, m or h)"}},
    {"[webhook]\nretry_initial = \"1m\"\nretry_max = \"30s\"",
     {"test.toml:2: webhook.retry_initial: 1m is longer than webhook.retry_max (30s)"}},
    {"[webhook]\nretry_initial = \"31s\"",
     {"test.toml:2: webhook.retry_initial: 31s is longer than webhook.retry_max (30s)"}},
    {"[webhook]\n\nretry_max = \"500ms\"",
     {"test.toml:3: webhook.retry_max: 500ms is shorter than webhook.retry_initial (1s)"}},
    {"[webhook]\nretry_initial = \"1m\"\nretry_max = \"0s\"",
     {"test.toml:3: webhook.retry_max: must be greater than zero (a zero wait would spend "
      "every attempt on a receiver that is down)"}},
    {"[control]\n\ntls_cert_file = \"cert.pem\"",
     {"test.toml:3: control.tls_cert_file: needs control.tls_key_file as well (TLS takes "
      "both files, or neither)"}},
    {"[control]\ntls_key_file = \"key.pem\"",
     {"test.toml:2: control.tls_key_file: needs control.tls_cert_file as well (TLS takes "
      "both files, or neither)"}},
    // An empty certificate path has its own error; the pair is not checked on top of it.
    {"[control]\ntls_cert_file = \"\"\ntls_key_file = \"key.pem\"",
     {"test.toml:2: control.tls_cert_file: must not be empty (leave the key out for no "
      "TLS)"}},
};

}  // namespace

TEST_CASE("an empty file gives the defaults", "[config]") {
  const auto text = GENERATE(as<std::string>{}, "", "# only a comment\n",
                             "[runner]\n[restart]\n[drain]\n[control]\n[webhook]\n[log]\n");
  CAPTURE(text);
  const config_result result = parse(text);
  CHECK(result.errors.empty());
  REQUIRE(result.config.has_value());
  check_defaults(*result.config);
}

TEST_CASE("the shipped config/runwarden.toml sets exactly the defaults", "[config]") {
  const config_result result =
      runwarden::load_config_file(RUNWARDEN_TEST_DATA_DIR "/../../config/runwarden.toml");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  CHECK(result.errors.empty());
  REQUIRE(result.config.has_value());
  check_defaults(*result.config);
}

TEST_CASE("every key takes its good values", "[config]") {
  const auto row = GENERATE(from_range(good_values));
  CAPTURE(row.text);
  const config_result result = parse(row.text);
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config.has_value());
  CHECK(result.errors.empty());
  CHECK(row.holds(*result.config));
}

TEST_CASE("every key rejects bad values, naming file, line and key", "[config]") {
  const auto row = GENERATE(from_range(bad_values));
  CAPTURE(row.text);
  const config_result result = parse(row.text);
  CHECK_FALSE(result.config.has_value());
  CHECK(result.errors == row.errors);
}

TEST_CASE("wrong types name the key, line, expected and actual type", "[config]") {
  const auto row = GENERATE(from_range(wrong_types));
  CAPTURE(row.text);
  const config_result result = parse(row.text);
  CHECK_FALSE(result.config.has_value());
  CHECK(result.errors == row.errors);
}

TEST_CASE("unknown tables and keys are errors, with the closest known key", "[config]") {
  const auto row = GENERATE(from_range(unknown_keys));
  CAPTURE(row.text);
  const config_result result = parse(row.text);
  CHECK_FALSE(result.config.has_value());
  CHECK(result.errors == row.errors);
}

TEST_CASE("checks across keys", "[config]") {
  const auto row = GENERATE(from_range(cross_key_problems));
  CAPTURE(row.text);
  const config_result result = parse(row.text);
  CHECK_FALSE(result.config.has_value());
  CHECK(result.errors == row.errors);
}

TEST_CASE("all errors are collected, in line order", "[config]") {
  const config_result result = parse(
      "[runner]\n"                    // 1
      "kind = \"gitlab\"\n"           // 2
      "graceful_signal = \"TERM\"\n"  // 3
      "outptu = \"log\"\n"            // 4
      "[restart]\n"                   // 5
      "jitter = 2\n"                  // 6
      "policy = \"sometimes\"\n"      // 7
      "[log]\n"                       // 8
      "level = 3\n"                   // 9
      "[extra]\n");                   // 10
  CHECK_FALSE(result.config.has_value());
  const std::vector<std::string> expected{
      "test.toml:3: runner.graceful_signal: cannot be set for kind \"gitlab\", whose signals "
      "are fixed (SIGQUIT drains, SIGTERM aborts); use kind = \"generic\" to choose signals",
      "test.toml:4: runner.outptu: unknown key (did you mean runner.output?)",
      "test.toml:6: restart.jitter: 2 is not between 0 and 1 (the fraction of each delay "
      "drawn at random)",
      "test.toml:7: restart.policy: unknown value \"sometimes\" (expected \"permanent\", "
      "\"transient\" or \"temporary\")",
      "test.toml:9: log.level: expected a string, got integer",
      "test.toml:10: extra: unknown table",
  };
  CHECK(result.errors == expected);
}

TEST_CASE("TOML syntax errors give toml++'s message with line and column", "[config]") {
  const config_result duplicate = parse("[log]\nlevel = \"info\"\nlevel = \"debug\"\n");
  CHECK_FALSE(duplicate.config.has_value());
  REQUIRE(duplicate.errors.size() == 1);
  CHECK_THAT(duplicate.errors[0], Catch::Matchers::StartsWith("test.toml:3:"));
  CHECK_THAT(duplicate.errors[0], Catch::Matchers::Contains("level"));

  const config_result unfinished = parse("[drain]\ntimeout = \n");
  CHECK_FALSE(unfinished.config.has_value());
  REQUIRE(unfinished.errors.size() == 1);
  CHECK_THAT(unfinished.errors[0], Catch::Matchers::StartsWith("test.toml:2:11: "));
  CHECK_THAT(unfinished.errors[0], Catch::Matchers::Contains("expected"));
}

TEST_CASE("load_config_file reads a file and names it in errors", "[config]") {
  const scratch_directory scratch;
  const auto good = scratch.write("good.toml", "[log]\nformat = \"json\"\n");
  const config_result loaded = runwarden::load_config_file(good);
  REQUIRE(loaded.config.has_value());
  CHECK(loaded.config->log.format == runwarden::log_format::json);

  const auto bad = scratch.write("bad.toml", "[log]\nformat = \"xml\"\n");
  const config_result rejected = runwarden::load_config_file(bad);
  CHECK_FALSE(rejected.config.has_value());
  REQUIRE(rejected.errors.size() == 1);
  CHECK_THAT(rejected.errors[0], Catch::Matchers::StartsWith(bad.string() + ":2: log.format: "));
}

TEST_CASE("load_config_file explains why a file cannot be read", "[config]") {
  const scratch_directory scratch;
  const auto missing = scratch.path() / "missing.toml";
  const config_result absent = runwarden::load_config_file(missing);
  CHECK_FALSE(absent.config.has_value());
  CHECK(absent.errors ==
        std::vector<std::string>{missing.string() +
                                 ": cannot read config file: No such file or directory"});

  const config_result directory = runwarden::load_config_file(scratch.path());
  CHECK_FALSE(directory.config.has_value());
  CHECK(directory.errors ==
        std::vector<std::string>{scratch.path().string() + ": cannot read config file: Is a "
                                                           "directory"});

  const auto huge = scratch.write("huge.toml", std::string(1024 * 1024 + 1, '#'));
  const config_result too_large = runwarden::load_config_file(huge);
  CHECK_FALSE(too_large.config.has_value());
  REQUIRE(too_large.errors.size() == 1);
  CHECK_THAT(too_large.errors[0], Catch::Matchers::Contains("larger than 1048576 bytes"));

  if (::geteuid() == 0) return;  // root reads files whatever their permissions say
  const auto locked = scratch.write("locked.toml", "");
  std::filesystem::permissions(locked, std::filesystem::perms::none);
  const config_result denied = runwarden::load_config_file(locked);
  CHECK_FALSE(denied.config.has_value());
  CHECK(denied.errors ==
        std::vector<std::string>{locked.string() + ": cannot read config file: Permission denied"});
}

TEST_CASE("overrides go through the file's checks and are blamed by their label") {
  settings base;
  base.drain.kill_timeout = std::chrono::seconds{3};
  const auto applied = apply_overrides(
      base, {{"drain.timeout", "2h", "--drain-timeout"}, {"runner.kind", "gitlab", "--kind"}});
  REQUIRE(applied.config);
  CHECK(applied.config->drain.timeout == std::chrono::hours{2});
  CHECK(applied.config->runner.kind == runner_kind_name::gitlab);
  CHECK(applied.config->drain.kill_timeout == std::chrono::seconds{3});

  const auto refused = apply_overrides(base, {{"drain.kill_timeout", "0s", "--kill-timeout"},
                                              {"restart.policy", "always", "--restart"}});
  CHECK_FALSE(refused.config);
  REQUIRE(refused.errors.size() == 2);
  for (const auto& error : refused.errors) {
    const bool blames_flag = error.rfind("--kill-timeout: ", 0) == 0 ||
                             error.rfind("--restart: unknown value \"always\"", 0) == 0;
    CHECK(blames_flag);
  }
}

TEST_CASE("boolean keys take true and false from flags", "[config]") {
  const auto applied =
      apply_overrides(settings{}, {{"control.insecure_unauthenticated_wrapper_api", "true",
                                    "--insecure-unauthenticated-wrapper-api"},
                                   {"control.insecure_unauthenticated_warden_shutdown", "false",
                                    "--insecure-unauthenticated-warden-shutdown"}});
  REQUIRE(applied.config);
  CHECK(applied.config->control.insecure_unauthenticated_wrapper_api);
  CHECK_FALSE(applied.config->control.insecure_unauthenticated_warden_shutdown);
  const auto refused =
      apply_overrides(settings{}, {{"control.insecure_unauthenticated_wrapper_api", "yes",
                                    "--insecure-unauthenticated-wrapper-api"}});
  REQUIRE(refused.errors.size() == 1);
  CHECK_THAT(refused.errors[0], Catch::StartsWith("--insecure-unauthenticated-wrapper-api: "));
}

TEST_CASE("a mode's own defaults are the base the file is read over", "[config]") {
  settings base;
  base.control.linger_after_gone = linger_policy{.forever = true};
  base.control.grpc_listen = "tcp://localhost:7777";
  const auto kept = parse_config_text("[drain]\ntimeout = \"1h\"\n", "test.toml", base);
  REQUIRE(kept.config);
  CHECK(kept.config->control.linger_after_gone.forever);
  CHECK(kept.config->control.grpc_listen == "tcp://localhost:7777");
  const auto changed =
      parse_config_text("[control]\nlinger_after_gone = \"0s\"\n", "test.toml", base);
  REQUIRE(changed.config);
  CHECK_FALSE(changed.config->control.linger_after_gone.forever);
}

TEST_CASE("control and webhook errors are collected with their lines", "[config]") {
  const config_result result = parse(
      "[drain]\n"                                // 1
      "timeout = \"1h\"\n"                       // 2
      "[control]\n"                              // 3
      "grpc_listen = \"tcp://10.0.0.1:http\"\n"  // 4
      "tls_key_file = \"key.pem\"\n"             // 5
      "http_listen = \"127.0.0.1:9253\"\n"       // 6
      "[webhook]\n"                              // 7
      "retry_initial = \"2m\"\n"                 // 8
      "url = \"mailto:ops@example.com\"\n"       // 9
      "alow_link_local = true\n");               // 10
  CHECK_FALSE(result.config.has_value());
  const std::vector<std::string> expected{
      "test.toml:4: control.grpc_listen: port \"http\" is not a number from 0 to 65535",
      "test.toml:5: control.tls_key_file: needs control.tls_cert_file as well (TLS takes both "
      "files, or neither)",
      "test.toml:8: webhook.retry_initial: 2m is longer than webhook.retry_max (30s)",
      "test.toml:9: webhook.url: must start with http:// or https://",
      "test.toml:10: webhook.alow_link_local: unknown key (did you mean "
      "webhook.allow_link_local?)",
  };
  CHECK(result.errors == expected);
}

TEST_CASE("control and webhook flags go through the same checks, blamed by their labels",
          "[config]") {
  settings base;
  base.webhook.secret_file = "/etc/runwarden/webhook-secret";
  const auto applied =
      apply_overrides(base, {{"control.grpc_listen", "tcp://[::1]:7701", "--grpc-listen"},
                             {"control.token_file", "/etc/runwarden/token", "--token-file"},
                             {"control.http_listen", "none", "--http-listen"},
                             {"webhook.url", "https://ci.example.com/hook", "--webhook"}});
  INFO((applied.errors.empty() ? std::string{} : applied.errors.front()));
  REQUIRE(applied.config);
  CHECK(applied.config->control.grpc_listen == "tcp://[::1]:7701");
  CHECK(applied.config->control.token_file == "/etc/runwarden/token");
  CHECK(applied.config->control.http_listen == "none");
  CHECK(applied.config->webhook.url == "https://ci.example.com/hook");
  CHECK(applied.config->webhook.secret_file == "/etc/runwarden/webhook-secret");

  const auto refused =
      apply_overrides(base, {{"control.grpc_listen", "tcp://localhost", "--grpc-listen"},
                             {"control.token_file", "", "--token-file"},
                             {"control.http_listen", "localhost", "--http-listen"},
                             {"webhook.url", "https://", "--webhook"}});
  CHECK_FALSE(refused.config);
  const std::vector<std::string> expected{
      "--grpc-listen: missing port: tcp://HOST:PORT",
      "--token-file: must not be empty (leave the key out for no token)",
      "--http-listen: \"localhost\" is not HOST:PORT or [IPv6]:PORT with a port from 0 to "
      "65535, or \"none\"",
      "--webhook: has no host (write a URL such as \"https://ci.example.com/runwarden\")",
  };
  CHECK_THAT(refused.errors, Catch::Matchers::UnorderedEquals(expected));
}

TEST_CASE("a flag contradicting a key set earlier is blamed by its label", "[config]") {
  settings base;
  base.webhook.retry_max = std::chrono::seconds{5};
  const auto refused =
      apply_overrides(base, {{"webhook.retry_initial", "10s", "--webhook-retry-initial"}});
  CHECK_FALSE(refused.config);
  CHECK(refused.errors == std::vector<std::string>{"--webhook-retry-initial: 10s is longer "
                                                   "than webhook.retry_max (5s)"});
}

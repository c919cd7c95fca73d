// See ctl_command.hpp. `shutdown --wait` opens its Watch stream before it asks for the
// shutdown: a runner with no jobs may be gone, and runwarden with it, before a Watch opened
// afterwards could connect, and then the exit code would be lost.
#include "src/app/ctl_command.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "src/app/ctl_output.hpp"
#include "src/config/listen_address.hpp"
#include "src/control/control_client.hpp"
#include "src/control/unix_socket_file.hpp"
#include "src/util/duration_text.hpp"
#include "src/util/secret_file.hpp"

namespace runwarden {

namespace {

constexpr const char* default_reason = "requested with runwarden ctl";

struct ctl_options {
  std::string socket_path;
  std::string address;
  client_settings client;
  bool json = false;
  bool watch = false;
  std::string reason = default_reason;
  std::string webhook;
  std::string webhook_file;
  std::string deadline;
  bool wait = false;
  bool force = false;
  std::string job_id;  // ctl job start|end ID
};

enum class ctl_action { status, shutdown, job_start, job_end };

int report(const client_failure& failure) {
  std::cerr << "runwarden ctl: " << failure.message << '\n';
  return failure.exit_code;
}

void print(const v1::StatusResponse& status, const ctl_options& options, bool as_change) {
  if (options.json) {
    std::cout << status_json(status).dump() << std::endl;
  } else {
    std::cout << (as_change ? change_line(status) : status_text(status)) << std::flush;
  }
}

// A stream that ended before `gone`. One that never carried a status failed to open (a
// refused token, say), and its failure says so by itself.
int report_early_end(status_stream& stream, bool received_any) {
  auto failure = stream.end();
  if (failure.exit_code == 0) failure.exit_code = exit_ctl_protocol;
  if (received_any || failure.message.empty())
    failure.message = "the status stream ended before the runner was gone" +
                      (failure.message.empty() ? "" : ": " + failure.message);
  return report(failure);
}

// Prints statuses until the one that says gone; returns runwarden's exit code from it.
int follow(status_stream& stream, const ctl_options& options, bool exit_code_from_gone,
           bool received_any) {
  while (auto status = stream.next()) {
    received_any = true;
    print(*status, options, true);
    if (status->state() == v1::STATE_GONE) {
      stream.end();
      return exit_code_from_gone ? status->exit_code().value() : 0;
    }
  }
  return report_early_end(stream, received_any);
}

int run_status(control_client& client, const ctl_options& options) {
  if (options.watch) return follow(*client.watch(), options, false, false);
  const auto answer = client.status();
  if (!answer.status) return report(answer.failure);
  print(*answer.status, options, false);
  return 0;
}

// A callback URL may carry a secret; on the command line every local user can read it.
std::optional<std::string> callback_url(const ctl_options& options) {
  if (!options.webhook.empty())
    std::cerr << "runwarden ctl: warning: --webhook puts the URL on the command line, where "
                 "every local user can read it (/proc/PID/cmdline, ps); use --webhook-file\n";
  if (options.webhook_file.empty()) return options.webhook;
  auto read = read_secret_file(options.webhook_file, "webhook URL file");
  if (!read.secret) std::cerr << "runwarden ctl: " << read.error << '\n';
  return read.secret;
}

std::optional<v1::ShutdownRequest> shutdown_request(const ctl_options& options) {
  v1::ShutdownRequest request;
  request.set_reason(options.reason);
  const auto webhook = callback_url(options);
  if (!webhook) return std::nullopt;
  if (!webhook->empty()) {
    request.mutable_callback()->set_url(*webhook);
    request.mutable_callback()->set_method("POST");
  }
  if (!options.deadline.empty()) {
    const auto parsed = parse_duration(options.deadline);
    if (!parsed.value) {
      std::cerr << "runwarden ctl: --deadline: " << parsed.error << '\n';
      return std::nullopt;
    }
    const auto milliseconds = parsed.value->count();
    request.mutable_deadline()->set_seconds(milliseconds / 1000);
    request.mutable_deadline()->set_nanos(static_cast<std::int32_t>(milliseconds % 1000) *
                                          1'000'000);
  }
  return request;
}

int run_shutdown(control_client& client, const ctl_options& options) {
  const auto request = shutdown_request(options);
  if (!request) return exit_usage;
  std::unique_ptr<status_stream> stream;
  if (options.wait) {
    stream = client.watch();
    const auto first = stream->next();
    if (!first) return report_early_end(*stream, false);
    if (first->state() == v1::STATE_GONE) {
      print(*first, options, true);
      stream->end();
      return first->exit_code().value();
    }
  }
  v1::ForceShutdownRequest force;
  force.set_reason(options.reason);
  const auto answer = options.force ? client.force_shutdown(force) : client.shutdown(*request);
  if (!answer.status) return report(answer.failure);
  if (!options.wait) {
    print(*answer.status, options, false);
    return 0;
  }
  return follow(*stream, options, true, true);
}

// A hook runs it before and after each job; quiet on success, so the job's log stays clean.
int run_job(control_client& client, const ctl_options& options, bool started) {
  v1::ReportJobRequest request;
  request.set_event(started ? v1::ReportJobRequest::EVENT_STARTED
                            : v1::ReportJobRequest::EVENT_ENDED);
  request.set_job_id(options.job_id);
  const auto answer = client.report_job(request);
  if (!answer.status) return report(answer.failure);
  if (options.json) print(*answer.status, options, false);
  return 0;
}

int run_action(control_client& client, const ctl_options& options, ctl_action action) {
  switch (action) {
    case ctl_action::shutdown:
      return run_shutdown(client, options);
    case ctl_action::job_start:
      return run_job(client, options, true);
    case ctl_action::job_end:
      return run_job(client, options, false);
    case ctl_action::status:
      break;
  }
  return run_status(client, options);
}

// The answer is out: `ctl` ends at once, without tearing gRPC down. That teardown joins the
// threads gRPC started with the channel (executor, timers, event engine), one wake-up each,
// and took as long as the call itself; the kernel closes the connection, which the server
// sees as any client's going. Under the sanitizers the orderly exit stays, so that
// LeakSanitizer still checks the client.
int leave_now(int exit_code) {
#if defined(__SANITIZE_ADDRESS__)
  return exit_code;
#else
  std::cout.flush();
  std::cerr.flush();
  spdlog::shutdown();
  std::fflush(nullptr);
  std::_Exit(exit_code);
#endif
}

int run_ctl(const ctl_options& given, ctl_action action) {
  ctl_options options = given;
  if (!options.socket_path.empty()) {
    options.client.address_text =
        "unix://" + std::filesystem::absolute(options.socket_path).lexically_normal().string();
  } else if (!options.address.empty()) {
    options.client.address_text = options.address;
  } else {
    // The default directory may have been made by someone else first (/tmp is anyone's).
    const std::filesystem::path socket = default_control_socket();
    const auto problem =
        client_socket_directory_problem(socket.parent_path().string(), ::geteuid());
    if (!problem.empty()) {
      std::cerr << "runwarden ctl: " << problem << '\n';
      return exit_unavailable;
    }
    options.client.address_text = "unix://" + socket.string();
  }
  auto connected = control_client::connect(options.client);
  if (!connected.client) return report(connected.failure);
  return leave_now(run_action(*connected.client, options, action));
}

void add_shutdown_flags(CLI::App& shutdown, ctl_options& options) {
  shutdown.add_option("--reason", options.reason, "why, for the logs and the status");
  auto* webhook =
      shutdown.add_option("--webhook", options.webhook, "http(s) URL to POST once gone");
  auto* webhook_file = shutdown.add_option("--webhook-file", options.webhook_file,
                                           "file holding the URL (kept out of the command line)");
  webhook_file->excludes(webhook);
  auto* deadline = shutdown.add_option("--deadline", options.deadline,
                                       "stop the runner forcefully after this long (e.g. 30m)");
  shutdown.add_flag("--wait", options.wait,
                    "wait until the runner is gone; exit with its exit code");
  shutdown.add_flag("--force", options.force, "stop the runner now (forceful signal)")
      ->excludes(webhook)
      ->excludes(webhook_file)
      ->excludes(deadline);
  shutdown.add_flag("--json", options.json, "print statuses as JSON, one object per line");
}

}  // namespace

ctl_command add_ctl_command(CLI::App& app) {
  auto options = std::make_shared<ctl_options>();
  auto* ctl = app.add_subcommand("ctl", "talk to a running runwarden (status, shutdown, job)");
  ctl->require_subcommand(1);
  auto* socket = ctl->add_option("--socket", options->socket_path, "control socket PATH");
  ctl->add_option("--addr", options->address, "unix:///PATH or tcp://HOST:PORT")->excludes(socket);
  ctl->add_option("--token-file", options->client.token_file, "file with the bearer token");
  ctl->add_option("--tls-ca", options->client.tls_ca_file, "CA file: connect with TLS");
  auto* status = ctl->add_subcommand("status", "show what runwarden and its runner are doing");
  status->fallthrough();
  status->add_flag("--json", options->json, "print JSON, one object per status");
  status->add_flag("--watch", options->watch, "print every change until the runner is gone");
  auto* shutdown = ctl->add_subcommand("shutdown", "drain the runner (or stop it: --force)");
  shutdown->fallthrough();
  add_shutdown_flags(*shutdown, *options);
  auto* job = ctl->add_subcommand("job", "report a job the runner started or ended");
  job->require_subcommand(1);
  auto* job_start = job->add_subcommand("start", "the runner started job ID");
  auto* job_end = job->add_subcommand("end", "the runner ended job ID");
  for (auto* sub : {job_start, job_end}) {
    sub->fallthrough();
    sub->add_option("id", options->job_id, "the job's id (the same for its start and end)")
        ->required();
    sub->add_flag("--json", options->json, "print the status after the report as JSON");
  }
  return {[ctl] { return ctl->parsed(); },
          [options, shutdown, job_start, job_end] {
            const auto action = shutdown->parsed()    ? ctl_action::shutdown
                                : job_start->parsed() ? ctl_action::job_start
                                : job_end->parsed()   ? ctl_action::job_end
                                                      : ctl_action::status;
            return run_ctl(*options, action);
          }};
}

}  // namespace runwarden

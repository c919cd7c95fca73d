// See webhook_notifier.hpp. The settings are checked in full before the notifier is planned,
// so that a refusal leaves nothing to start or clean up.
#include "actors/notifier/webhook_notifier.hpp"

#include "actors/notifier/notifier_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "messages/child_ids.hpp"
#include "runwarden_version.hpp"
#include "src/webhook/address_policy.hpp"
#include "src/webhook/webhook_secret.hpp"

namespace runwarden {

namespace {

struct checked_settings {
  std::optional<webhook_target> webhook;
  std::string secret;
};

struct check_result {
  std::optional<checked_settings> checked;  // set exactly when error is empty
  std::string error;
};

check_result check_settings(const webhook_settings& settings) {
  if (settings.timeout.count() <= 0) return {std::nullopt, "webhook timeout must be positive"};
  if (settings.attempts_max == 0) return {std::nullopt, "webhook attempts_max must be at least 1"};
  checked_settings checked;
  if (!settings.url.empty()) {
    auto parsed = parse_webhook_target(settings.url);
    if (!parsed.target) return {std::nullopt, "webhook url: " + parsed.error};
    // A numeric host needs no lookup, so a refusal can be told now rather than at a drain.
    if (parsed.target->host_is_address) {
      if (auto refusal = check_target_addresses(*parsed.target, {parsed.target->host},
                                                settings.allow_link_local))
        return {std::nullopt, "webhook url: " + *refusal};
    } else if (!settings.allow_link_local && is_metadata_host_name(parsed.target->host)) {
      return {std::nullopt, "webhook url: " + parsed.target->label() +
                                " names an instance metadata service; refused unless "
                                "allow_link_local is set"};
    }
    checked.webhook = std::move(parsed.target);
  }
  if (!settings.secret_file.empty()) {
    auto read = read_webhook_secret(settings.secret_file);
    if (!read.secret) return {std::nullopt, read.error};
    checked.secret = std::move(*read.secret);
  }
  return {std::move(checked), {}};
}

// Per event: its own template, else the file's for every event, else none (default body).
std::map<notification_kind, std::string> templates_of(const webhook_settings& settings) {
  std::map<notification_kind, std::string> templates;
  for (const auto kind : all_notification_kinds) {
    if (const auto own = settings.templates.find(kind); own != settings.templates.end()) {
      templates.emplace(kind, own->second);
    } else if (!settings.template_file_text.empty()) {
      templates.emplace(kind, settings.template_file_text);
    }
  }
  return templates;
}

}  // namespace

bool flush_notifier(caf::actor_system& system, const supervisor_actor& supervisor,
                    std::chrono::milliseconds wait_max) {
  const auto notifier = caf::actor_cast<notifier_actor>(
      current_child(system, supervisor, std::string{child_id::notifier}, wait_max));
  if (!notifier) return false;
  caf::scoped_actor waiter{system};
  bool flushed = false;
  waiter->request(notifier, caf::duration{wait_max}, flush_atom::value)
      .receive([&](caf::ok_atom) { flushed = true; }, [&](const caf::error&) {});
  return flushed;
}

notifier_plan_result plan_notifier(const webhook_settings& settings, std::uint64_t random_seed,
                                   delivery_observer observer, runner_identity runner) {
  auto checked = check_settings(settings);
  if (!checked.checked) return {std::nullopt, std::move(checked.error)};
  return {notifier_wiring{
              .http_port = {},
              .webhook = std::move(checked.checked->webhook),
              .secret = std::move(checked.checked->secret),
              .allow_link_local = settings.allow_link_local,
              .timeout = settings.timeout,
              .limits = delivery_limits_of(settings),
              .random_seed = random_seed,
              .observer = std::move(observer),
              .clock = [] { return std::chrono::system_clock::now(); },
              .version = version_text,
              .templates = templates_of(settings),
              .headers = settings.headers,
              .environment_proxy = settings.proxy_from_environment,
              .runner = std::move(runner),
          },
          {}};
}

}  // namespace runwarden

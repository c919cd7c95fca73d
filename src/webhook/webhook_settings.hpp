#pragma once
// The [webhook] table of settings (config/runwarden.toml): where runwarden reports the drain
// and how hard it tries. It lives with the webhook module, which plans deliveries from it;
// src/config/settings.hpp gathers it with the others.

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

// Where runwarden reports the drain: a POST when it starts and when it is gone.
struct webhook_settings {
  std::string url;          // http:// or https://; empty means no webhook
  std::string secret_file;  // HMAC-SHA256 key for the X-Runwarden-Signature header
  // Link-local targets (169.254.0.0/16, fe80::/10: the instance metadata service among
  // them) are refused unless this is set, so an API caller cannot aim runwarden at them.
  bool allow_link_local = false;
  std::chrono::milliseconds timeout{std::chrono::seconds{10}};  // per attempt
  std::chrono::milliseconds retry_initial{std::chrono::seconds{1}};
  std::chrono::milliseconds retry_max{std::chrono::seconds{30}};
  std::uint32_t attempts_max = 8;  // the retry budget, first attempt included
  // Body templates (Mustache, src/webhook/body_template.hpp), checked at load: the text of
  // template_file for every event, and per event an inline template that overrides it.
  // Neither: the default JSON body (src/webhook/notification_body.hpp).
  std::string template_file;
  std::string template_file_text;
  std::map<notification_kind, std::string> templates;
  // Sent with every webhook POST (not with shutdown callbacks, which carry their own).
  // Values are never logged: they often hold a token.
  std::vector<std::pair<std::string, std::string>> headers;
  // Reach the webhook and callbacks through the proxy libcurl finds in https_proxy,
  // http_proxy (lower case only) and no_proxy, as curl does.
  bool proxy_from_environment = true;
};

}  // namespace runwarden

// See config_webhook_values.hpp. Errors about a header name the header, never its value.
#include "src/config/config_webhook_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "src/util/assert.hpp"
#include "src/util/duration_text.hpp"
#include "src/webhook/body_template.hpp"
#include "src/webhook/header_rules.hpp"

namespace runwarden {

namespace {

// Headers runwarden must write itself: the transfer's framing and the body's signature.
constexpr std::string_view reserved_headers[] = {"Host", "Content-Length", "Transfer-Encoding",
                                                 "X-Runwarden-Signature"};

std::optional<notification_kind> event_named(std::string_view name) {
  for (const auto kind : all_notification_kinds)
    if (to_string(kind) == name) return kind;
  return std::nullopt;
}

struct file_read {
  std::string text;
  std::string error;
};

file_read read_template_file(const std::string& path) {
  std::ifstream file{path, std::ios::binary};
  if (!file) return {{}, fmt::format("cannot read {}: {}", path, std::strerror(errno))};
  std::string text;
  text.resize(template_file_bytes_max + 1);
  file.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(file.gcount()));
  if (text.size() > template_file_bytes_max)
    return {{}, fmt::format("{} is larger than {} bytes", path, template_file_bytes_max)};
  return {std::move(text), {}};
}

}  // namespace

bool read_webhook_template_file(config_value& value) {
  const auto path = value.expect_nonempty_string("leave the key out for the default body");
  if (!path) return false;
  auto read = read_template_file(*path);
  if (!read.error.empty()) {
    value.refuse(read.error);
    return false;
  }
  if (const auto problem = body_template_problem(read.text)) {
    value.refuse(fmt::format("{} {}", *path, *problem));
    return false;
  }
  value.config().webhook.template_file = *path;
  value.config().webhook.template_file_text = std::move(read.text);
  return true;
}

bool read_webhook_template(config_value& value) {
  const auto text = value.expect_nonempty_string("leave the key out for the default body");
  if (!text) return false;
  const auto event = event_named(value.key().substr(value.key().rfind('.') + 1));
  RUNWARDEN_ASSERT(event);  // the schema lists one row per event
  if (const auto problem = body_template_problem(*text)) {
    value.refuse(*problem);
    return false;
  }
  value.config().webhook.templates[*event] = *text;
  return true;
}

bool read_webhook_headers(config_value& value) {
  const toml::table* table = value.node().as_table();
  if (table == nullptr) {
    value.refuse_type("a table of header names and values, such as { \"X-Team\" = \"ci\" }");
    return false;
  }
  if (table->size() > webhook_headers_max) {
    value.refuse(fmt::format("at most {} headers", webhook_headers_max));
    return false;
  }
  http_header_list headers;
  for (auto&& [name_key, node] : *table) {
    const std::string name{name_key.str()};
    const auto* text = node.as_string();
    if (!is_header_token(name)) {
      value.refuse(fmt::format("\"{}\" is not a valid header name", name));
    } else if (std::any_of(std::begin(reserved_headers), std::end(reserved_headers),
                           [&](std::string_view r) { return same_header_name(r, name); })) {
      value.refuse(fmt::format("\"{}\" is written by runwarden itself", name));
    } else if (text == nullptr || !is_safe_header_value(text->get())) {
      value.refuse(fmt::format("the value of \"{}\" must be a string without line breaks", name));
    } else {
      headers.emplace_back(name, text->get());
      continue;
    }
    return false;
  }
  value.config().webhook.headers = std::move(headers);
  return true;
}

bool read_unregister_alert_after(config_value& value) {
  const auto text = value.expect_string("\"none\" or a duration string such as \"10m\"");
  if (!text) return false;
  if (*text == "none") {
    value.config().unregister.alert_after.reset();
    return true;
  }
  const auto parsed = parse_duration(*text);
  if (!parsed.value || parsed.value->count() == 0) {
    value.refuse(parsed.value ? "must be greater than zero, or \"none\"" : parsed.error);
    return false;
  }
  value.config().unregister.alert_after = parsed.value;
  return true;
}

}  // namespace runwarden

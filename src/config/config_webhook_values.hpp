#pragma once
// Readers for the [webhook] keys that take more than a type and a range: body templates
// (read and checked when the config is, so a template that cannot render JSON is a config
// error naming its key), custom headers, and unregister.alert_after. config_schema.cpp binds
// them to their rows.

#include "src/config/config_reader.hpp"

namespace runwarden {

// Template files larger than this are refused: a chat message does not need more.
inline constexpr std::size_t template_file_bytes_max = 64 * 1024;
// Custom headers per webhook, at most.
inline constexpr std::size_t webhook_headers_max = 32;

bool read_webhook_template_file(config_value& value);
// One row per event under [webhook.templates]; the key's last part names the event.
bool read_webhook_template(config_value& value);
bool read_webhook_headers(config_value& value);
bool read_unregister_alert_after(config_value& value);

}  // namespace runwarden

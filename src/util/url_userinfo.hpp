#pragma once
// URLs may carry a password ("https://user:secret@gitlab.example.com"): gitlab-runner's
// config.toml, a webhook, a shutdown callback. Whatever runwarden logs, reports in an error
// or shows in its status passes through this one helper first, so that the user information
// of every URL in the text is replaced by "***" and the rest stays readable.

#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::string_view redacted_userinfo = "***";

// `text` with the user information of every "scheme://userinfo@host" in it replaced by
// redacted_userinfo; text without such URLs comes back unchanged.
std::string redact_url_userinfo(std::string_view text);

}  // namespace runwarden

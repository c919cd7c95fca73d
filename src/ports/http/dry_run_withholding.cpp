// See dry_run_withholding.hpp. The answers are the smallest each caller takes as success:
// 200 with the action's empty <ActionResponse> for the Query API (the client reads only the
// status of a non-Describe action), 204 for a DELETE (GitLab and GitHub answer so), 200
// otherwise.
#include "src/ports/http/dry_run_withholding.hpp"

#include <array>
#include <string_view>

#include "src/ports/http/http_request_rules.hpp"
#include "src/util/form_encoding.hpp"

namespace runwarden {

namespace {

// The Query API parameters worth naming in the log; the action token is left out.
constexpr std::array<std::string_view, 10> named_parameters = {"AutoScalingGroupName",
                                                               "LifecycleHookName",
                                                               "LifecycleActionResult",
                                                               "InstanceId",
                                                               "InstanceIds.member.1",
                                                               "DesiredCapacity",
                                                               "ShouldDecrementDesiredCapacity",
                                                               "ProtectedFromScaleIn",
                                                               "HealthStatus",
                                                               "ShouldRespectGracePeriod"};

struct url_parts {
  std::string_view scheme;
  std::string_view authority;  // host and port, without userinfo
  std::string_view host;       // without userinfo and port
  std::string_view path;       // without query
};

url_parts split_url(std::string_view url) {
  url_parts parts;
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return parts;
  parts.scheme = url.substr(0, scheme_end);
  auto rest = url.substr(scheme_end + 3);
  const auto authority_end = rest.find_first_of("/?#");
  auto authority = rest.substr(0, authority_end);
  if (const auto at = authority.rfind('@'); at != std::string_view::npos)
    authority = authority.substr(at + 1);
  parts.authority = authority;
  if (!authority.starts_with('[')) authority = authority.substr(0, authority.find(':'));
  parts.host = authority;
  if (authority_end == std::string_view::npos) return parts;
  rest = rest.substr(authority_end);
  parts.path = rest.substr(0, rest.find_first_of("?#"));
  return parts;
}

std::optional<std::string> query_action(const http_request& request) {
  if (!equals_ignoring_case(request.method, "POST")) return std::nullopt;
  for (const auto& [name, value] : form_decode(request.body))
    if (name == "Action") return value;
  return std::nullopt;
}

withheld_call withheld_action(const http_request& request, const std::string& action) {
  std::string name = action;
  for (const auto& [key, value] : form_decode(request.body))
    for (const auto named : named_parameters)
      if (key == named) name += " " + key + "=" + value;
  const std::string body = "<" + action +
                           "Response xmlns=\"http://autoscaling.amazonaws.com/"
                           "doc/2011-01-01/\"><" +
                           action +
                           "Result/><ResponseMetadata>"
                           "<RequestId>dry-run</RequestId></ResponseMetadata></" +
                           action + "Response>";
  return {name, http_response{.id = request.id,
                              .status_code = 200,
                              .body = body,
                              .headers = {{"content-type", "text/xml"}}}};
}

// A path is named only where it is an API's, known to hold no secret.
bool names_its_path(std::string_view path) {
  return path.ends_with("/api/v4/runners") || path.ends_with("/api/v4/runners/managers") ||
         path.find("/actions/runners/") != std::string_view::npos ||
         path.find("/metadata/scheduledevents") != std::string_view::npos;
}

}  // namespace

std::optional<withheld_call> dry_run_withholding(const http_request& request) {
  if (equals_ignoring_case(request.method, "GET") || equals_ignoring_case(request.method, "HEAD"))
    return std::nullopt;
  const auto url = split_url(request.url);
  if (equals_ignoring_case(request.method, "PUT") && url.path == "/latest/api/token")
    return std::nullopt;  // IMDSv2: a session token for reading the metadata
  if (const auto action = query_action(request)) {
    if (action->starts_with("Describe")) return std::nullopt;
    return withheld_action(request, *action);
  }
  std::string name = request.method + " ";
  name += names_its_path(url.path)
              ? std::string{url.scheme} + "://" + std::string{url.authority} + std::string{url.path}
              : "to " + std::string{url.host} + " (webhook or callback)";
  const bool deleting = equals_ignoring_case(request.method, "DELETE");
  return withheld_call{name, http_response{.id = request.id, .status_code = deleting ? 204 : 200}};
}

}  // namespace runwarden

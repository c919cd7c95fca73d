// See autoscaling_endpoint.hpp.
#include "src/aws/autoscaling_endpoint.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <memory>

namespace runwarden {

namespace {

using url_handle = std::unique_ptr<CURLU, decltype(&curl_url_cleanup)>;

std::optional<std::string> url_part(CURLU* url, CURLUPart part) {
  char* text = nullptr;
  if (curl_url_get(url, part, &text, 0) != CURLUE_OK) return std::nullopt;
  std::string copy{text};
  curl_free(text);
  return copy;
}

bool valid_region(const std::string& region) {
  return !region.empty() && std::all_of(region.begin(), region.end(), [](char character) {
    return (character >= 'a' && character <= 'z') || (character >= '0' && character <= '9') ||
           character == '-';
  });
}

autoscaling_endpoint_resolution take_apart(const std::string& text, const std::string& source) {
  const std::string problem = source + " is not an http:// or https:// URL with a host";
  url_handle url{curl_url(), curl_url_cleanup};
  if (!url || curl_url_set(url.get(), CURLUPART_URL, text.c_str(), 0) != CURLUE_OK)
    return {std::nullopt, problem};
  const auto scheme = url_part(url.get(), CURLUPART_SCHEME);
  const auto host = url_part(url.get(), CURLUPART_HOST);
  if (!scheme || (*scheme != "http" && *scheme != "https") || !host || host->empty())
    return {std::nullopt, problem};
  if (url_part(url.get(), CURLUPART_QUERY) || url_part(url.get(), CURLUPART_FRAGMENT) ||
      url_part(url.get(), CURLUPART_USER))
    return {std::nullopt, source +
                              " has a user, query or fragment; only scheme, host, port and "
                              "path are allowed"};
  autoscaling_endpoint endpoint;
  endpoint.url = text;
  endpoint.host_header = *host;
  if (const auto port = url_part(url.get(), CURLUPART_PORT)) endpoint.host_header += ":" + *port;
  endpoint.path = url_part(url.get(), CURLUPART_PATH).value_or("/");
  endpoint.source = source;
  return {std::move(endpoint), {}};
}

}  // namespace

autoscaling_endpoint_resolution resolve_autoscaling_endpoint(const environment_map& environment,
                                                             const std::string& region) {
  return resolve_query_endpoint(environment, region, autoscaling_query_service);
}

autoscaling_endpoint_resolution resolve_query_endpoint(const environment_map& environment,
                                                       const std::string& region,
                                                       const aws_query_service& service) {
  for (const std::string& variable :
       {std::string{service.endpoint_variable}, std::string{"AWS_ENDPOINT_URL"}}) {
    const auto found = environment.find(variable);
    if (found != environment.end() && !found->second.empty())
      return take_apart(found->second, variable);
  }
  if (!valid_region(region))
    return {std::nullopt, "the region \"" + region + "\" is not a region name like us-east-1"};
  const std::string suffix = region.starts_with("cn-") ? ".amazonaws.com.cn" : ".amazonaws.com";
  return take_apart("https://" + std::string{service.endpoint_prefix} + "." + region + suffix + "/",
                    "the region");
}

}  // namespace runwarden

// See runner_scrape.hpp.
#include "src/scrape/runner_scrape.hpp"

#include "src/scrape/exposition_parser.hpp"
#include "src/util/url_userinfo.hpp"

namespace runwarden {

runner_scrape judge_runner_scrape(const http_response& response, const std::string& full_url) {
  const std::string url = redact_url_userinfo(full_url);  // errors are logged
  if (!response.status_code)
    return {std::nullopt,
            "scraping " + url + " failed: " + redact_url_userinfo(response.transport_error)};
  if (*response.status_code != 200)
    return {std::nullopt,
            "scraping " + url + " answered HTTP " + std::to_string(*response.status_code)};
  const auto parsed = parse_exposition_text(response.body);
  if (!parsed.page)
    return {std::nullopt, "the metrics from " + url + " do not parse: " + describe(parsed.error)};
  return {derive_gitlab_runner_load(*parsed.page), {}};
}

}  // namespace runwarden

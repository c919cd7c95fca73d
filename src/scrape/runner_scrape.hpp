#pragma once
// One scrape of the runner's /metrics, judged: an HTTP answer in, the runner's load or the
// reason there is none out. A failed scrape says "unknown", never "no jobs": a runner that
// does not answer may be busier than ever.

#include <string>

#include "src/scrape/gitlab_runner_load.hpp"
#include "src/util/http_exchange.hpp"

namespace runwarden {

struct runner_scrape {
  std::optional<gitlab_runner_load> load;  // set exactly when error is empty
  std::string error;                       // for the log: what was wrong, where
};

runner_scrape judge_runner_scrape(const http_response& response, const std::string& url);

}  // namespace runwarden

#pragma once
// `[cloud] provider = "auto"`: which cloud this machine runs on, found at start with one short
// probe per cloud, all at once, each bounded by the same timeout, so that the runner's start
// waits at most that long (one second by default). Each probe asks what only its own
// metadata service answers, at the endpoint runwarden would use for it (settings and
// environment, as the watchers resolve them):
//   aws    PUT /latest/api/token with a TTL: a token and its TTL header (IMDSv2)
//   azure  GET /metadata/instance/compute with "Metadata: true": compute metadata with a name
//   gcp    GET /computeMetadata/v1/instance/id with "Metadata-Flavor: Google": an answer
//          carrying "Metadata-Flavor: Google"
// All three may share 169.254.169.254, so an answer counts only by those features, never by
// its status alone. Nothing found means "none": the runner is supervised without a cloud.

#include <chrono>
#include <string>
#include <vector>

#include "messages/http_messages.hpp"
#include "src/config/settings.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

inline constexpr std::chrono::milliseconds cloud_probe_timeout{1000};

struct cloud_probe {
  cloud_provider cloud;
  http_request request;  // empty url: the endpoint setting is bad, not probed
  std::string problem;   // why it was not probed
};

// The three probes, in the order a tie is broken in.
std::vector<cloud_probe> cloud_probes(const settings& config, const environment_map& environment,
                                      std::chrono::milliseconds timeout);

// Whether `answer` is the probed cloud's own.
bool answers_as(cloud_provider cloud, const http_response& answer);

struct cloud_detection {
  cloud_provider found = cloud_provider::none;
  std::string account;  // for the log: what each probe saw
};

// "aws", "azure" or "gcp": the found cloud as cloud.provider spells it.
std::string name_of(const cloud_detection& detection);

// Runs the probes at once (one thread each) and judges their answers; takes at most about
// `timeout`.
cloud_detection detect_cloud(const settings& config, const environment_map& environment,
                             std::chrono::milliseconds timeout = cloud_probe_timeout);

}  // namespace runwarden

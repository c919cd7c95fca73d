// See gcp_metadata_service.hpp.
#include "src/sim/gcp_metadata_service.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>

namespace runwarden {

namespace {

constexpr std::string_view metadata_path = "/computeMetadata/v1/";
// A wait without timeout_sec ends after this, as tests/gcp/fake_gce_metadata.py has it.
constexpr sim_seconds default_wait_seconds = 3600;

struct metadata_read {
  std::string key;
  bool wait_for_change = false;
  std::optional<std::string> last_etag;
  sim_seconds timeout = default_wait_seconds;
};

std::optional<metadata_read> read_of(const http_request& request) {
  std::string_view url{request.url};
  if (!url.starts_with(sim_gcp_endpoint)) return std::nullopt;
  url.remove_prefix(sim_gcp_endpoint.size());
  if (!url.starts_with(metadata_path)) return std::nullopt;
  url.remove_prefix(metadata_path.size());
  const auto question = url.find('?');
  metadata_read read;
  read.key = std::string{url.substr(0, question)};
  if (question == std::string_view::npos) return read;
  auto query = url.substr(question + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto equals = pair.find('=');
    const auto name = pair.substr(0, equals);
    const auto value = equals == std::string_view::npos ? "" : pair.substr(equals + 1);
    if (name == "wait_for_change") read.wait_for_change = value == "true";
    if (name == "last_etag") read.last_etag = std::string{value};
    if (name == "timeout_sec") read.timeout = std::atof(std::string{value}.c_str());
  }
  return read;
}

bool flavored(const http_request& request) {
  return std::any_of(request.headers.begin(), request.headers.end(), [](const auto& header) {
    return header.first == "Metadata-Flavor" && header.second == "Google";
  });
}

// The value's ETag: a hash of it, as Google's changes exactly when the value does.
std::string etag_of(std::string_view value) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (const char c : value) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return fmt::format("{:016x}", hash);
}

std::optional<std::string> value_of(const sim_instance& instance, std::size_t index,
                                    const std::string& key) {
  if (key == "instance/preempted") return instance.preempted ? "TRUE" : "FALSE";
  if (key == "instance/maintenance-event") return "NONE";
  if (key == "instance/id") return fmt::format("{}", 7000000000000000000ull + index + 1);
  if (key == "instance/name") return instance.id;
  if (key == "instance/zone") return "projects/000000000000/zones/sim-a";
  if (key == "instance/attributes/created-by")
    return "projects/000000000000/zones/sim-a/instanceGroupManagers/sim-fleet";
  return std::nullopt;
}

http_response value_answer(const std::string& value) {
  return {.status_code = 200,
          .body = value,
          .headers = {{"metadata-flavor", "Google"},
                      {"etag", etag_of(value)},
                      {"content-type", "application/text"}}};
}

}  // namespace

bool gcp_metadata_service::hold(std::size_t index, const http_request& request, sim_seconds now,
                                const held_responder& later) {
  const auto read = read_of(request);
  if (!later || !read || !read->wait_for_change || !flavored(request)) return false;
  const auto value = value_of(world_.instances_[index], index, read->key);
  if (!value) return false;
  const auto etag = etag_of(*value);
  if (read->last_etag && *read->last_etag != etag) return false;  // changed already
  world_.held_reads_.push_back({index, read->key, etag, now + read->timeout, later});
  return true;
}

http_response gcp_metadata_service::answer(std::size_t index, const http_request& request) const {
  if (!flavored(request))
    return {.status_code = 403, .body = "Missing Metadata-Flavor:Google header.\n"};
  const auto read = read_of(request);
  const auto value = read ? value_of(world_.instances_[index], index, read->key) : std::nullopt;
  if (!value)
    return {.status_code = 404, .body = "Not found\n", .headers = {{"metadata-flavor", "Google"}}};
  return value_answer(*value);
}

void gcp_metadata_service::value_changed(std::size_t index) {
  std::erase_if(world_.held_reads_, [&](held_metadata_read& read) {
    if (read.instance != index) return false;
    const auto value = *value_of(world_.instances_[index], index, read.key);
    if (etag_of(value) == read.etag) return false;
    read.respond(value_answer(value));
    return true;
  });
}

void gcp_metadata_service::answer_timed_out(sim_seconds now) {
  std::erase_if(world_.held_reads_, [&](held_metadata_read& read) {
    if (now < read.until) return false;
    const auto& instance = world_.instances_[read.instance];
    read.respond(value_answer(*value_of(instance, read.instance, read.key)));
    return true;
  });
}

}  // namespace runwarden

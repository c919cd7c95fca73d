// See service_manager_link.hpp.
#include "src/app/service_manager_link.hpp"

#include <curl/curl.h>

#include <memory>

#include "actors/service_manager/service_manager_actor.hpp"
#include "src/logging/logging.hpp"
#include "src/ports/os/systemd_notify.hpp"

namespace runwarden {

namespace {

// The host of the CI server for the status line ("gitlab.example.com"); empty when none.
std::string host_of(const std::string& url) {
  if (url.empty()) return {};
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle{curl_url(), curl_url_cleanup};
  char* host = nullptr;
  if (!handle || curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK ||
      curl_url_get(handle.get(), CURLUPART_HOST, &host, 0) != CURLUE_OK)
    return {};
  std::string result{host};
  curl_free(host);
  return result;
}

}  // namespace

std::optional<service_manager_link> service_manager_link::start(
    caf::actor_system& system, const warden_actor& warden, std::optional<systemd_notify> notify,
    const std::string& unregister_url, bool listening) {
  if (!notify) return std::nullopt;
  if (const auto interval = notify->watchdog_interval()) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*interval).count();
    if (notify->through_keeper())
      warden_logger()->info("the keeper expects this warden's watchdog ping every {}ms", ms);
    else
      warden_logger()->info("systemd watchdog every {}ms", ms);
  }
  auto actor = system.spawn(
      service_manager_behavior,
      service_manager_wiring{.warden = warden,
                             .facts = {.unregister_host = host_of(unregister_url)},
                             .watchdog_interval = notify->watchdog_interval(),
                             .send =
                                 [notify = *notify](const std::vector<std::string>& lines) {
                                   if (auto problem = notify.send(lines))
                                     warden_logger()->warn("{}", *problem);
                                 },
                             .wall_clock = [] { return std::chrono::system_clock::now(); }});
  if (listening) caf::anon_send(actor, listening_atom::value);
  return service_manager_link{std::move(actor)};
}

void service_manager_link::stop() { caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown); }

}  // namespace runwarden

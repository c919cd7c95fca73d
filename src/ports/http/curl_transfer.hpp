#pragma once
// HTTP requests carried out with one reusable libcurl easy handle, each blocking the calling
// thread for at most the request's timeout. Only an HTTP port's worker thread uses it.
// Reusing the handle keeps connections and looked-up names between polls of the same
// server (IMDS, a runner's /metrics), so a poll costs no new TCP or TLS handshake.
// Transfers are locked down for talking to targets runwarden was told about by others:
// http and https only, no redirects, no proxy from the environment unless the request asks
// for one, names pinned to checked addresses, bodies capped.

#include <atomic>
#include <memory>

#include "messages/http_messages.hpp"

namespace runwarden {

// Formats a pin as CURLOPT_RESOLVE wants it: "host:port:addr,[v6addr]".
std::string curl_resolve_entry(const resolve_pin& pin);

class curl_session {
 public:
  curl_session();
  ~curl_session();
  curl_session(const curl_session&) = delete;
  curl_session& operator=(const curl_session&) = delete;

  // Never throws; every failure becomes the response's transport_error.
  http_response perform(const http_request& request);

  // Ends the transfer in progress within about a second (libcurl asks its progress callback
  // at least once a second) and every later one at once. Any thread may call it: a stopping
  // port must not wait out a long request, such as a metadata wait_for_change of minutes.
  void abandon() { abandoned_.store(true); }

 private:
  struct handle;
  std::unique_ptr<handle> handle_;
  std::atomic<bool> abandoned_ = false;
};

}  // namespace runwarden

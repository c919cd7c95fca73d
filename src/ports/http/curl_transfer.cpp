// See curl_transfer.hpp. The handle and header lists are owned by unique_ptrs so that every
// early return frees them; the response body is read and dropped, since runwarden only needs
// the status code and must not buffer whatever a remote server chooses to send.
#include "src/ports/http/curl_transfer.hpp"

#include <curl/curl.h>

#include <cassert>
#include <memory>
#include <mutex>

namespace runwarden {

namespace {

struct easy_deleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct list_deleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using easy_handle = std::unique_ptr<CURL, easy_deleter>;
using string_list = std::unique_ptr<curl_slist, list_deleter>;

// curl_global_init is not safe to race with other libcurl calls; do it once, first.
void initialise_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::size_t discard_body(char*, std::size_t size, std::size_t count, void*) {
  return size * count;
}

// Appends to a curl_slist; false when libcurl is out of memory.
bool append(string_list& list, const std::string& line) {
  curl_slist* grown = curl_slist_append(list.get(), line.c_str());
  if (grown == nullptr) return false;
  (void)list.release();
  list.reset(grown);
  return true;
}

bool method_sends_body(const std::string& method) { return method != "GET" && method != "HEAD"; }

// Everything that does not depend on the request's content: the lockdown.
CURLcode set_fixed_options(CURL* handle, const http_request& request, char* error_text) {
  const long timeout_ms = static_cast<long>(request.timeout.count());
  CURLcode code = CURLE_OK;
  const auto set = [&](CURLoption option, auto value) {
    if (code == CURLE_OK) code = curl_easy_setopt(handle, option, value);
  };
  set(CURLOPT_ERRORBUFFER, error_text);
  set(CURLOPT_NOSIGNAL, 1L);
  set(CURLOPT_TIMEOUT_MS, timeout_ms);
  set(CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  set(CURLOPT_FOLLOWLOCATION, 0L);
  set(CURLOPT_PROTOCOLS_STR, "http,https");
  set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  set(CURLOPT_PROXY, "");  // an environment proxy would connect where the checks never looked
  set(CURLOPT_WRITEFUNCTION, &discard_body);
  return code;
}

CURLcode set_request_options(CURL* handle, const http_request& request,
                             const string_list& headers, const string_list& pins) {
  CURLcode code = CURLE_OK;
  const auto set = [&](CURLoption option, auto value) {
    if (code == CURLE_OK) code = curl_easy_setopt(handle, option, value);
  };
  set(CURLOPT_URL, request.url.c_str());
  set(CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (request.method == "HEAD") set(CURLOPT_NOBODY, 1L);
  if (method_sends_body(request.method)) {
    set(CURLOPT_POSTFIELDS, request.body.c_str());
    set(CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
  set(CURLOPT_HTTPHEADER, headers.get());
  if (pins) set(CURLOPT_RESOLVE, pins.get());
  return code;
}

}  // namespace

std::string curl_resolve_entry(const resolve_pin& pin) {
  assert(!pin.addresses.empty());
  std::string entry = pin.host + ":" + std::to_string(pin.port) + ":";
  for (std::size_t i = 0; i < pin.addresses.size(); ++i) {
    const auto& address = pin.addresses[i];
    if (i > 0) entry += ',';
    entry += address.find(':') == std::string::npos ? address : "[" + address + "]";
  }
  return entry;
}

http_response perform_http_request(const http_request& request) {
  assert(request.timeout.count() > 0);
  initialise_curl_once();
  http_response response{.id = request.id, .status_code = std::nullopt, .transport_error = {}};
  easy_handle handle{curl_easy_init()};
  string_list headers;
  string_list pins;
  bool lists_built = handle != nullptr;
  // "Expect:" stops libcurl from waiting for a 100 Continue on larger bodies.
  lists_built = lists_built && append(headers, "Expect:");
  for (const auto& [name, value] : request.headers)
    lists_built = lists_built && append(headers, name + ": " + value);
  for (const auto& pin : request.pins)
    lists_built = lists_built && append(pins, curl_resolve_entry(pin));
  if (!lists_built) {
    response.transport_error = "out of memory preparing the request";
    return response;
  }
  char error_text[CURL_ERROR_SIZE] = {};
  CURLcode code = set_fixed_options(handle.get(), request, error_text);
  if (code == CURLE_OK) code = set_request_options(handle.get(), request, headers, pins);
  if (code == CURLE_OK) code = curl_easy_perform(handle.get());
  if (code != CURLE_OK) {
    response.transport_error = error_text[0] != '\0' ? error_text : curl_easy_strerror(code);
    return response;
  }
  long status = 0;
  curl_easy_getinfo(handle.get(), CURLINFO_RESPONSE_CODE, &status);
  response.status_code = static_cast<int>(status);
  return response;
}

}  // namespace runwarden

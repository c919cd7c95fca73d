// See curl_transfer.hpp. Header lists are owned by unique_ptrs so that every early return
// frees them; curl_easy_reset between requests clears every option but keeps the
// connection cache, which is the point of reusing the handle.
#include "src/ports/http/curl_transfer.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <string_view>

#include "src/ports/http/ca_bundle.hpp"
#include "src/ports/http/http_request_rules.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

struct list_deleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using string_list = std::unique_ptr<curl_slist, list_deleter>;

// curl_global_init is not safe to race with other libcurl calls; do it once, first.
void initialise_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Where libcurl's callbacks put the answer of the transfer in progress.
struct response_sink {
  http_response* response;
  std::size_t max_body_bytes;
  const std::atomic<bool>* abandoned;
  bool body_too_large = false;
};

// libcurl's progress callback: nonzero ends the transfer with CURLE_ABORTED_BY_CALLBACK.
int check_abandoned(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<const response_sink*>(user)->abandoned->load() ? 1 : 0;
}

std::size_t collect_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& sink = *static_cast<response_sink*>(user);
  const std::size_t bytes = size * count;
  if (sink.response->body.size() + bytes > sink.max_body_bytes) {
    sink.body_too_large = true;
    return 0;  // makes libcurl stop with CURLE_WRITE_ERROR
  }
  sink.response->body.append(data, bytes);
  return bytes;
}

std::string trimmed(std::string_view text) {
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!text.empty() && space(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && space(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return std::string{text};
}

// libcurl hands over every header line of every response (a 100 Continue, then the real
// one); a status line starts a new response, so only the final one's headers remain.
std::size_t collect_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto& sink = *static_cast<response_sink*>(user);
  const std::string_view line{data, size * count};
  if (line.starts_with("HTTP/")) {
    sink.response->headers.clear();
  } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
    std::string name = trimmed(line.substr(0, colon));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    sink.response->headers.emplace_back(std::move(name), trimmed(line.substr(colon + 1)));
  }
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

// Everything that does not depend on the request's content: the lockdown.
CURLcode set_fixed_options(CURL* handle, const http_request& request, char* error_text,
                           response_sink& sink) {
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
  // The static binary's libcurl knows no CA bundle of its own (ca_bundle.hpp).
  if (const auto& bundle = system_ca_bundle()) set(CURLOPT_CAINFO, bundle->c_str());
  // An environment proxy would connect where the checks never looked, unless the request
  // asks for it (a webhook behind a corporate proxy; its host was checked before).
  if (!request.environment_proxy) set(CURLOPT_PROXY, "");
  set(CURLOPT_WRITEFUNCTION, &collect_body);
  set(CURLOPT_WRITEDATA, static_cast<void*>(&sink));
  set(CURLOPT_HEADERFUNCTION, &collect_header);
  set(CURLOPT_HEADERDATA, static_cast<void*>(&sink));
  set(CURLOPT_NOPROGRESS, 0L);
  set(CURLOPT_XFERINFOFUNCTION, &check_abandoned);
  set(CURLOPT_XFERINFODATA, static_cast<void*>(&sink));
  return code;
}

CURLcode set_request_options(CURL* handle, const http_request& request, const string_list& headers,
                             const string_list& pins) {
  CURLcode code = CURLE_OK;
  const auto set = [&](CURLoption option, auto value) {
    if (code == CURLE_OK) code = curl_easy_setopt(handle, option, value);
  };
  set(CURLOPT_URL, request.url.c_str());
  set(CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (request.method == "HEAD") set(CURLOPT_NOBODY, 1L);
  if (sends_body(request)) {
    set(CURLOPT_POSTFIELDS, request.body.c_str());
    set(CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }
  set(CURLOPT_HTTPHEADER, headers.get());
  if (!request.ca_file.empty()) set(CURLOPT_CAINFO, request.ca_file.c_str());
  if (pins) set(CURLOPT_RESOLVE, pins.get());
  return code;
}

}  // namespace

struct curl_session::handle {
  CURL* easy = nullptr;
  ~handle() {
    if (easy != nullptr) curl_easy_cleanup(easy);
  }
};

curl_session::curl_session() : handle_(std::make_unique<handle>()) {}

curl_session::~curl_session() = default;

std::string curl_resolve_entry(const resolve_pin& pin) {
  RUNWARDEN_ASSERT(!pin.addresses.empty());
  std::string entry = pin.host + ":" + std::to_string(pin.port) + ":";
  for (std::size_t i = 0; i < pin.addresses.size(); ++i) {
    const auto& address = pin.addresses[i];
    if (i > 0) entry += ',';
    entry += address.find(':') == std::string::npos ? address : "[" + address + "]";
  }
  return entry;
}

http_response curl_session::perform(const http_request& request) {
  RUNWARDEN_ASSERT(request.timeout.count() > 0);
  http_response response{.id = request.id};
  // libcurl starts with the first request: curl_global_init sets up OpenSSL (1.7 MiB of
  // resident pages), which a port whose requests all go to the io thread never needs.
  if (handle_->easy == nullptr) {
    initialise_curl_once();
    handle_->easy = curl_easy_init();
  }
  CURL* easy = handle_->easy;
  string_list headers;
  string_list pins;
  bool lists_built = easy != nullptr;
  // "Expect:" stops libcurl from waiting for a 100 Continue on larger bodies.
  lists_built = lists_built && append(headers, "Expect:");
  // libcurl labels a body it sends as a form unless told otherwise; a request says so
  // itself or sends no Content-Type (a shutdown callback without one, as gitlab-runner's).
  if (sends_body(request) && !has_header(request, "CONTENT-TYPE"))
    lists_built = lists_built && append(headers, "Content-Type:");
  for (const auto& [name, value] : request.headers)
    lists_built = lists_built && append(headers, name + ": " + value);
  for (const auto& pin : request.pins)
    lists_built = lists_built && append(pins, curl_resolve_entry(pin));
  if (!lists_built) {
    response.transport_error = "out of memory preparing the request";
    return response;
  }
  curl_easy_reset(easy);
  response_sink sink{.response = &response,
                     .max_body_bytes = request.max_response_bytes,
                     .abandoned = &abandoned_};
  char error_text[CURL_ERROR_SIZE] = {};
  CURLcode code = set_fixed_options(easy, request, error_text, sink);
  if (code == CURLE_OK) code = set_request_options(easy, request, headers, pins);
  if (code == CURLE_OK) code = curl_easy_perform(easy);
  // The options point into this frame (the sink, the lists); none may outlive it.
  const auto forget = [&] { curl_easy_reset(easy); };
  if (code != CURLE_OK) {
    response.body.clear();
    response.headers.clear();
    response.transport_error =
        sink.body_too_large ? "the response body is larger than " +
                                  std::to_string(request.max_response_bytes) + " bytes"
        : code == CURLE_ABORTED_BY_CALLBACK
            ? std::string{"the HTTP port stopped during the request"}
            : std::string{error_text[0] != '\0' ? error_text : curl_easy_strerror(code)};
    forget();
    return response;
  }
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  response.status_code = static_cast<int>(status);
  forget();
  return response;
}

}  // namespace runwarden

// See host_resolver.hpp. The lookup's memory (the request, its hints and the name) must
// outlive glibc's use of it, which is why a lookup is one heap object that either dies here
// once glibc is done or waits in abandoned_ until it is.
#include "src/ports/http/host_resolver.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// How long the destructor waits for abandoned lookups before it leaves them to the process
// exit: freeing memory glibc may still write to would be worse than keeping it.
constexpr std::chrono::milliseconds abandoned_wait_max{200};

std::string numeric_address(const addrinfo& info) {
  char text[INET6_ADDRSTRLEN] = {};
  const void* raw = nullptr;
  if (info.ai_family == AF_INET) {
    raw = &reinterpret_cast<const sockaddr_in*>(info.ai_addr)->sin_addr;
  } else if (info.ai_family == AF_INET6) {
    raw = &reinterpret_cast<const sockaddr_in6*>(info.ai_addr)->sin6_addr;
  } else {
    return {};
  }
  if (::inet_ntop(info.ai_family, raw, text, sizeof text) == nullptr) return {};
  return text;
}

std::vector<std::string> addresses_of(const addrinfo* list) {
  std::vector<std::string> addresses;
  for (const addrinfo* info = list; info != nullptr; info = info->ai_next) {
    auto address = numeric_address(*info);
    if (address.empty()) continue;
    if (std::find(addresses.begin(), addresses.end(), address) != addresses.end()) continue;
    addresses.push_back(std::move(address));
  }
  return addresses;
}

timespec timespec_of(std::chrono::nanoseconds remaining) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(remaining);
  return timespec{static_cast<time_t>(seconds.count()),
                  static_cast<long>((remaining - seconds).count())};
}

}  // namespace

struct host_resolver::lookup {
  std::string host;
  addrinfo hints{};
  gaicb request{};

  ~lookup() {
    if (request.ar_result != nullptr) ::freeaddrinfo(request.ar_result);
  }
  bool finished() const { return ::gai_error(const_cast<gaicb*>(&request)) != EAI_INPROGRESS; }

  // Waits until the lookup finishes or the deadline passes; true when it finished.
  bool wait_until(std::chrono::steady_clock::time_point deadline) const {
    const gaicb* const list[] = {&request};
    while (!finished()) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return false;
      const auto remaining = timespec_of(deadline - now);
      ::gai_suspend(list, 1, &remaining);  // EAI_AGAIN, EAI_INTR: the loop decides
    }
    return true;
  }
};

host_resolver::host_resolver() = default;

host_resolver::~host_resolver() {
  const auto deadline = std::chrono::steady_clock::now() + abandoned_wait_max;
  for (auto& abandoned : abandoned_) {
    if (!abandoned->wait_until(deadline)) (void)abandoned.release();
  }
}

void host_resolver::release_finished_lookups() {
  std::erase_if(abandoned_, [](const std::unique_ptr<lookup>& l) { return l->finished(); });
}

resolved_host host_resolver::resolve(const std::string& host, std::chrono::milliseconds timeout) {
  release_finished_lookups();
  if (abandoned_.size() >= abandoned_lookups_max)
    return {{}, "too many host lookups are still hanging; the resolver looks stuck"};
  auto pending = std::make_unique<lookup>();
  pending->host = host;
  pending->hints.ai_family = AF_UNSPEC;
  pending->hints.ai_socktype = SOCK_STREAM;
  pending->request.ar_name = pending->host.c_str();
  pending->request.ar_request = &pending->hints;
  gaicb* list[] = {&pending->request};
  if (const int started = ::getaddrinfo_a(GAI_NOWAIT, list, 1, nullptr); started != 0)
    return {{}, std::string{"cannot start the host lookup: "} + ::gai_strerror(started)};

  if (!pending->wait_until(std::chrono::steady_clock::now() + timeout)) {
    if (::gai_cancel(&pending->request) == EAI_NOTCANCELED && !pending->finished())
      abandoned_.push_back(std::move(pending));
    return {{}, "host lookup timed out"};
  }
  const int status = ::gai_error(&pending->request);
  if (status != 0) return {{}, ::gai_strerror(status)};
  auto addresses = addresses_of(pending->request.ar_result);
  if (addresses.empty()) return {{}, "the host has no IPv4 or IPv6 address"};
  RUNWARDEN_ASSERT(abandoned_.size() <= abandoned_lookups_max);
  return {std::move(addresses), {}};
}

}  // namespace runwarden

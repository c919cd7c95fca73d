#pragma once
// Name lookups with a hard timeout, for the HTTP port's worker thread. Plain getaddrinfo
// blocks for as long as resolv.conf allows (several seconds per server and attempt), which
// would hold the worker and its shutdown hostage; glibc's getaddrinfo_a can be waited on
// with a deadline instead. A lookup that neither finishes nor cancels in time is kept
// aside until glibc is done with its memory, and their number is bounded.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace runwarden {

struct resolved_host {
  std::vector<std::string> addresses;  // numeric, deduplicated, in resolver order
  std::string error;                   // set exactly when addresses is empty
};

class host_resolver {
 public:
  // Lookups that timed out but glibc could not cancel; past this, lookups are refused.
  static constexpr std::size_t abandoned_lookups_max = 4;

  host_resolver();
  host_resolver(const host_resolver&) = delete;
  host_resolver& operator=(const host_resolver&) = delete;
  ~host_resolver();

  // Blocks for at most `timeout`.
  resolved_host resolve(const std::string& host, std::chrono::milliseconds timeout);

 private:
  struct lookup;
  void release_finished_lookups();

  std::vector<std::unique_ptr<lookup>> abandoned_;
};

}  // namespace runwarden

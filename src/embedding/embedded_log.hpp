#pragma once
// runwarden's log lines in a host program: the process's "warden" and "runner" loggers
// (src/logging/logging.hpp) hand each line to the host's sink, or write it to stderr as the
// instance's [log] table says, instead of spdlog's defaults. Only those two loggers are
// touched: the host's own spdlog loggers, its default logger and spdlog's global thread pool
// stay as they are. The lines are queued for a thread of their own, as in runwarden run, so
// a slow sink never holds up the thread that acts on the runner.
//
// The loggers are one per process. Each started instance adds a route; the newest decides
// where lines go. A route removed (its instance stopped) hands on the lines queued before
// it, waiting a bounded time, and its sink is never called after.

#include <cstdint>
#include <memory>

#include "runwarden/config.hpp"
#include "src/logging/log_settings.hpp"

namespace runwarden {

class embedded_log_route {
 public:
  // `sink` empty: stderr, in settings.format. Lines below settings.level are dropped.
  static std::unique_ptr<embedded_log_route> install(const log_settings& settings,
                                                     embedded::log_sink sink);
  embedded_log_route(const embedded_log_route&) = delete;
  embedded_log_route& operator=(const embedded_log_route&) = delete;
  ~embedded_log_route();

 private:
  explicit embedded_log_route(std::uint64_t id) : id_(id) {}
  std::uint64_t id_;
};

}  // namespace runwarden

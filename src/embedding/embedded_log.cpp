// See embedded_log.hpp. One router sink serves both loggers; it keeps the routes under the
// sink's own mutex, so a route removed is never used again once removal returned.
#include "src/embedding/embedded_log.hpp"

#include <spdlog/async.h>
#include <spdlog/details/thread_pool.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

// The lines queued for the log's own thread, as runwarden run queues them (logging.cpp).
constexpr std::size_t queued_lines_max = 8192;
// How long a route's removal waits for the lines queued before it to be handed on.
constexpr std::chrono::seconds queued_lines_wait_max{2};

embedded::log_level public_level(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
      return embedded::log_level::trace;
    case spdlog::level::debug:
      return embedded::log_level::debug;
    case spdlog::level::info:
      return embedded::log_level::info;
    case spdlog::level::warn:
      return embedded::log_level::warning;
    case spdlog::level::err:
      return embedded::log_level::error;
    default:
      return embedded::log_level::critical;
  }
}

struct route {
  std::uint64_t id;
  spdlog::level::level_enum level;
  embedded::log_sink sink;                    // empty: stderr
  std::unique_ptr<spdlog::formatter> format;  // for stderr
};

class router_sink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  // The level the loggers keep: the newest route's, `off` with none.
  spdlog::level::level_enum add(route added) {
    const std::lock_guard lock{mutex_};
    routes_.push_back(std::move(added));
    return routes_.back().level;
  }
  spdlog::level::level_enum remove(std::uint64_t id) {
    const std::lock_guard lock{mutex_};
    std::erase_if(routes_, [id](const route& each) { return each.id == id; });
    return routes_.empty() ? spdlog::level::off : routes_.back().level;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& message) override {
    if (routes_.empty()) return;
    const auto& to = routes_.back();
    if (message.level < to.level) return;
    if (to.sink) {
      to.sink({.level = public_level(message.level),
               .logger = {message.logger_name.data(), message.logger_name.size()},
               .text = {message.payload.data(), message.payload.size()},
               .time = message.time});
      return;
    }
    spdlog::memory_buf_t line;
    to.format->format(message, line);
    std::fwrite(line.data(), 1, line.size(), stderr);
  }
  void flush_() override { std::fflush(stderr); }

  // set_pattern and set_formatter: each route formats as its own [log] says.
  void set_pattern_(const std::string&) override {}
  void set_formatter_(std::unique_ptr<spdlog::formatter>) override {}

 private:
  std::vector<route> routes_;
};

struct process_log {
  std::mutex mutex;  // guards the loggers' creation and the next id
  std::shared_ptr<router_sink> router;
  std::shared_ptr<spdlog::details::thread_pool> pool;  // the async loggers hold it weakly
  std::vector<std::shared_ptr<spdlog::logger>> loggers;
  std::uint64_t next_id = 1;

  void set_level(spdlog::level::level_enum level) {
    for (const auto& logger : loggers) logger->set_level(level);
  }
};

process_log& the_log() {
  static auto* log = new process_log;  // lives until the exit, as the loggers it made
  return *log;
}

void create_loggers(process_log& log) {
  log.router = std::make_shared<router_sink>();
  log.pool = std::make_shared<spdlog::details::thread_pool>(queued_lines_max, 1);
  for (const char* name : {"warden", "runner"}) {
    spdlog::drop(name);
    auto logger = std::make_shared<spdlog::async_logger>(
        name, log.router, log.pool, spdlog::async_overflow_policy::overrun_oldest);
    spdlog::register_logger(logger);
    log.loggers.push_back(std::move(logger));
  }
}

}  // namespace

std::unique_ptr<embedded_log_route> embedded_log_route::install(const log_settings& settings,
                                                                embedded::log_sink sink) {
  auto& log = the_log();
  const std::lock_guard lock{log.mutex};
  if (!log.router) create_loggers(log);
  const auto id = log.next_id++;
  log.set_level(
      log.router->add({.id = id,
                       .level = parse_log_level(settings.level).value_or(spdlog::level::info),
                       .sink = std::move(sink),
                       .format = log_line_formatter(settings.format)}));
  return std::unique_ptr<embedded_log_route>{new embedded_log_route{id}};
}

embedded_log_route::~embedded_log_route() {
  auto& log = the_log();
  const std::lock_guard lock{log.mutex};
  const auto give_up = std::chrono::steady_clock::now() + queued_lines_wait_max;
  while (log.pool->queue_size() > 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds{5});
  log.set_level(log.router->remove(id_));
}

}  // namespace runwarden

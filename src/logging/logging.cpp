// See logging.hpp. The JSON lines are built with nlohmann-json so that every message, the
// runner's arbitrary output included, is escaped correctly.
#include "src/logging/logging.hpp"

#include <spdlog/async.h>
#include <spdlog/details/os.h>
#include <spdlog/formatter.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>

namespace runwarden {

namespace {

class json_line_formatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& message, spdlog::memory_buf_t& destination) override {
    const auto since_epoch = message.time.time_since_epoch();
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(since_epoch);
    nlohmann::json line = {
        {"time_unix_us", micros.count()},
        {"level", spdlog::level::to_string_view(message.level).data()},
        {"logger", std::string(message.logger_name.data(), message.logger_name.size())},
        {"msg", std::string(message.payload.data(), message.payload.size())},
    };
    // Replace, not throw, on invalid UTF-8: the runner's output is not ours to trust.
    const auto text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    destination.append(text.data(), text.data() + text.size());
    destination.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<json_line_formatter>();
  }
};

std::shared_ptr<spdlog::logger> make_logger(const std::string& name, const spdlog::sink_ptr& sink) {
  auto logger = std::make_shared<spdlog::logger>(name, sink);
  spdlog::register_logger(logger);
  return logger;
}

// The lines queued for the log's own thread. A stalled reader of stderr (a pipeline that
// stopped reading) then blocks that thread alone: the loop that acts on signals and drains
// never waits for it, and when the queue is full the oldest line gives way.
// spdlog builds every slot of its queue up front, about 370 bytes each whatever the line:
// spdlog's default of 8192 lines was 3 MiB of the warden's resident memory, most of what it
// has of its own. 1024 lines, about 100 KB of a runner's output, is more than a pipe to a
// stalled reader holds, and the log's thread writes a burst of them in a few milliseconds.
constexpr std::size_t queued_lines_max = 1024;

std::shared_ptr<spdlog::logger> make_queued_logger(const std::string& name,
                                                   const spdlog::sink_ptr& sink) {
  auto logger = std::make_shared<spdlog::async_logger>(
      name, sink, spdlog::thread_pool(), spdlog::async_overflow_policy::overrun_oldest);
  spdlog::register_logger(logger);
  return logger;
}

std::shared_ptr<spdlog::logger> logger_named(const std::string& name) {
  static std::mutex creating;
  const std::lock_guard lock{creating};
  if (auto logger = spdlog::get(name)) return logger;
  static auto fallback_sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  return make_logger(name, fallback_sink);
}

}  // namespace

std::unique_ptr<spdlog::formatter> log_line_formatter(log_format format) {
  if (format == log_format::json) return std::make_unique<json_line_formatter>();
  return std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%e %^%-5l%$ %n: %v");
}

std::optional<spdlog::level::level_enum> parse_log_level(std::string_view text) {
  for (int level = spdlog::level::trace; level < spdlog::level::n_levels; ++level) {
    const auto name = spdlog::level::to_string_view(spdlog::level::level_enum(level));
    if (text == std::string_view(name.data(), name.size())) return spdlog::level::level_enum(level);
  }
  if (text == "warn") return spdlog::level::warn;
  return std::nullopt;
}

std::optional<log_format> parse_log_format(std::string_view text) {
  if (text == "text") return log_format::text;
  if (text == "json") return log_format::json;
  return std::nullopt;
}

std::optional<std::string> setup_logging(const log_settings& settings) {
  const auto level = parse_log_level(settings.level);
  if (!level) return "unknown log level \"" + settings.level + "\"";
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  sink->set_formatter(log_line_formatter(settings.format));
  spdlog::drop_all();
  spdlog::init_thread_pool(queued_lines_max, 1);
  for (const char* name : {"warden", "runner"}) {
    auto logger = make_queued_logger(name, sink);
    logger->set_level(*level);
    logger->flush_on(spdlog::level::trace);
  }
  return std::nullopt;
}

std::shared_ptr<spdlog::logger> warden_logger() { return logger_named("warden"); }
std::shared_ptr<spdlog::logger> runner_logger() { return logger_named("runner"); }

}  // namespace runwarden

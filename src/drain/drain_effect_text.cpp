// See drain_effect_text.hpp.
#include "src/drain/drain_effect_text.hpp"

#include <fmt/format.h>

#include "src/runner/signal_names.hpp"
#include "src/util/url_userinfo.hpp"

namespace runwarden {

namespace {

std::string milliseconds_text(instant at) {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(at).count()) + "ms";
}

struct effect_text {
  std::string operator()(const spawn_runner&) const { return "spawn_runner"; }
  std::string operator()(const signal_runner& e) const {
    return fmt::format("signal_runner {} {} pid={}", to_string(e.purpose),
                       signal_name(e.signal_number), e.pid);
  }
  std::string operator()(const arm_timer& e) const {
    return fmt::format("arm_timer {} id={} at={}", to_string(e.kind), e.id,
                       milliseconds_text(e.at));
  }
  std::string operator()(const change_status& e) const {
    return fmt::format("change_status {}->{}", to_string(e.from), to_string(e.to));
  }
  std::string operator()(const exit_warden& e) const {
    return fmt::format("exit_warden code={}", e.exit_code);
  }
  std::string operator()(const send_notification& e) const {
    std::string text = fmt::format("send_notification {}", to_string(e.kind));
    for (const auto& callback : e.callbacks)
      text += " callback=" + redact_url_userinfo(callback.url);
    return text;
  }
  std::string operator()(const report& e) const { return "report " + e.text; }
  std::string operator()(const unregister_runner&) const { return "unregister_runner"; }
  std::string operator()(const record_lifecycle_heartbeat& e) const {
    return "record_lifecycle_heartbeat hook=" + e.hook_name;
  }
  std::string operator()(const complete_lifecycle_action& e) const {
    return fmt::format("complete_lifecycle_action hook={} result={}", e.hook_name,
                       to_string(e.result));
  }
};

}  // namespace

std::string to_string(const drain_effect& effect) { return std::visit(effect_text{}, effect); }

}  // namespace runwarden

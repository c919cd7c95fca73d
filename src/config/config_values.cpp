// The readers for values that are more than a type and a range: words that map to enums,
// arrays, signals, "none" or a duration, listen addresses and URLs. Each checks one key's
// value with config_value's expectations plus its own rules and stores it in settings.

#include "src/config/config_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "src/config/listen_address.hpp"
#include "src/runner/signal_names.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

constexpr std::array<std::string_view, 2> output_words{"log", "inherit"};
constexpr std::array<std::string_view, 2> format_words{"text", "json"};

// The host of "[userinfo@]host[:port][/path]", without the brackets of an IPv6 literal.
std::string_view url_host(std::string_view after_scheme) {
  std::string_view authority = after_scheme.substr(0, after_scheme.find_first_of("/?#"));
  authority.remove_prefix(authority.rfind('@') + 1);  // npos + 1 is 0: no userinfo
  if (!authority.starts_with('[')) return authority.substr(0, authority.find(':'));
  const std::size_t close = authority.find(']');
  return close == std::string_view::npos ? std::string_view{} : authority.substr(1, close - 1);
}

}  // namespace

bool read_runner_kind(config_value& value) {
  std::vector<std::string_view> words;
  for (const runner_kind& kind : known_runner_kinds()) words.push_back(kind.text);
  const std::optional<std::string_view> word = value.expect_word(words);
  return word && store(parse_runner_kind(*word), value.config().runner.kind);
}

std::optional<std::vector<std::string>> expect_argv(config_value& value, std::string_view described,
                                                    std::string_view when_empty) {
  const toml::array* array = value.node().as_array();
  if (array == nullptr) {
    value.refuse_type(described);
    return std::nullopt;
  }
  if (array->empty()) {
    value.refuse(std::string{"must not be empty ("} + std::string{when_empty} + ")");
    return std::nullopt;
  }
  std::vector<std::string> command;
  for (std::size_t index = 0; index < array->size(); ++index) {
    std::optional<std::string> text = value.element(index).expect_string();
    if (text) command.push_back(std::move(*text));
  }
  if (command.size() != array->size()) return std::nullopt;
  if (command.front().empty()) {
    value.element(0).refuse("the executable must not be empty");
    return std::nullopt;
  }
  return command;
}

bool read_runner_command(config_value& value) {
  std::optional<std::vector<std::string>> command = expect_argv(
      value, "an array of strings", "leave the key out to give the command after -- instead");
  if (command) value.config().runner.command = std::move(*command);
  return command.has_value();
}

bool read_runner_output(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(output_words);
  if (word) value.config().runner.output = *word == "log" ? output_mode::log : output_mode::inherit;
  return word.has_value();
}

std::optional<int> expect_signal(config_value& value) {
  std::string written;
  if (const toml::value<std::int64_t>* integer = value.node().as_integer()) {
    written = std::to_string(integer->get());
  } else if (const toml::value<std::string>* text = value.node().as_string()) {
    written = text->get();
  } else {
    value.refuse_type("a signal name such as \"SIGTERM\"");
    return std::nullopt;
  }
  const std::optional<int> number = parse_signal_name(written);
  if (!number) {
    value.refuse(fmt::format(
        "unknown signal \"{}\" (write a name such as \"SIGTERM\" or a number from 1 to 64)",
        written));
  }
  return number;
}

bool read_restart_policy(config_value& value) {
  const std::array<std::string_view, 3> words{to_string(restart_type::permanent),
                                              to_string(restart_type::transient),
                                              to_string(restart_type::temporary)};
  const std::optional<std::string_view> word = value.expect_word(words);
  return word && store(parse_restart_type(*word), value.config().restart.type);
}

bool read_restart_jitter(config_value& value) {
  double jitter = 0;
  if (const toml::value<double>* number = value.node().as_floating_point()) {
    jitter = number->get();
  } else if (const toml::value<std::int64_t>* integer = value.node().as_integer()) {
    jitter = static_cast<double>(integer->get());
  } else {
    value.refuse_type("a number from 0 to 1");
    return false;
  }
  // Written so that NaN fails too.
  if (!(jitter >= 0.0 && jitter <= 1.0)) {
    value.refuse(fmt::format(
        "{} is not between 0 and 1 (the fraction of each delay drawn at random)", jitter));
    return false;
  }
  value.config().restart.jitter = jitter;
  return true;
}

bool read_drain_timeout(config_value& value) {
  const std::optional<std::string> text =
      value.expect_string("\"none\" or a duration string such as \"2h\"");
  if (!text) return false;
  if (*text == "none") {
    value.config().drain.timeout.reset();
    return true;
  }
  const duration_parse_result parsed = parse_duration(*text);
  if (!parsed.value) {
    value.refuse(fmt::format("{}; write \"none\" for no deadline", parsed.error));
    return false;
  }
  if (parsed.value->count() == 0) {
    value.refuse(
        fmt::format("\"{}\" would kill running jobs at once; write \"none\" for no deadline or "
                    "a positive duration such as \"2h\"",
                    *text));
    return false;
  }
  value.config().drain.timeout = parsed.value;
  return true;
}

// The grace holds a drain's graceful signal, and a spot notice gives two minutes in all.
constexpr std::chrono::milliseconds start_grace_max{std::chrono::minutes{1}};

bool read_drain_start_grace(config_value& value) {
  const std::optional<std::chrono::milliseconds> grace = value.expect_duration();
  if (!grace) return false;
  if (*grace > start_grace_max) {
    value.refuse(
        fmt::format("must be at most {} (it holds a drain's signal to a just-started "
                    "runner, and a spot notice gives two minutes in all)",
                    format_duration(start_grace_max)));
    return false;
  }
  value.config().drain.start_grace = *grace;
  return true;
}

bool read_drain_unregister_alongside_below(config_value& value) {
  const std::optional<std::string> text =
      value.expect_string("\"none\" or a duration string such as \"60s\"");
  if (!text) return false;
  if (*text == "none") {
    value.config().drain.unregister_alongside_below.reset();
    return true;
  }
  const duration_parse_result parsed = parse_duration(*text);
  if (!parsed.value) {
    value.refuse(
        fmt::format("{}; write \"none\" to always unregister after the stop", parsed.error));
    return false;
  }
  value.config().drain.unregister_alongside_below = parsed.value;
  return true;
}

// "none", or an address parse_listen_address takes, whose own words explain a refusal.
bool read_grpc_listen(config_value& value) {
  const std::optional<std::string> text = value.expect_nonempty_string(
      "leave the key out for the default socket, or write \"none\" for no gRPC server");
  if (!text) return false;
  if (*text != "none") {
    const listen_address_result parsed = parse_listen_address(*text);
    if (!parsed.error.empty()) {
      value.refuse(parsed.error);
      return false;
    }
  }
  value.config().control.grpc_listen = *text;
  return true;
}

bool read_linger_after_gone(config_value& value) {
  const std::optional<std::string> text =
      value.expect_string("\"forever\" or a duration such as \"10m\" (\"0s\": exit at gone)");
  if (!text) return false;
  if (*text == "forever") {
    value.config().control.linger_after_gone = linger_policy{.forever = true};
    return true;
  }
  const duration_parse_result parsed = parse_duration(*text);
  if (!parsed.value) {
    value.refuse(fmt::format("{}; write \"forever\", or \"0s\" to exit at gone", parsed.error));
    return false;
  }
  value.config().control.linger_after_gone =
      linger_policy{.forever = false, .duration = *parsed.value};
  return true;
}

// "none", or HOST:PORT checked as the host and port of a tcp:// listen address.
bool read_http_listen(config_value& value) {
  const std::optional<std::string> text =
      value.expect_nonempty_string("write \"none\" for no HTTP endpoints");
  if (!text) return false;
  if (*text != "none" && !parse_listen_address("tcp://" + *text).error.empty()) {
    value.refuse(fmt::format(
        "\"{}\" is not HOST:PORT or [IPv6]:PORT with a port from 0 to 65535, or \"none\"", *text));
    return false;
  }
  value.config().control.http_listen = *text;
  return true;
}

// Only the URL's form is checked here; where it leads (link-local or not) is checked when it
// is resolved. Messages never quote the URL: webhook URLs often carry a secret in the path.
std::optional<std::string> expect_http_url(config_value& value, std::string_view when_empty) {
  std::optional<std::string> url = value.expect_nonempty_string(when_empty);
  if (!url) return std::nullopt;
  std::string_view after_scheme{*url};
  if (!after_scheme.starts_with("http://") && !after_scheme.starts_with("https://")) {
    value.refuse("must start with http:// or https://");
    return std::nullopt;
  }
  after_scheme.remove_prefix(after_scheme.find("//") + 2);
  const bool has_space = std::any_of(url->begin(), url->end(), [](char character) {
    const auto byte = static_cast<unsigned char>(character);
    return byte <= ' ' || byte == 0x7f;
  });
  if (has_space) {
    value.refuse("must not contain spaces or control characters (percent-encode them: %20)");
    return std::nullopt;
  }
  if (url_host(after_scheme).empty()) {
    value.refuse("has no host (write a URL such as \"https://ci.example.com/runwarden\")");
    return std::nullopt;
  }
  return url;
}

bool read_webhook_url(config_value& value) {
  return store(expect_http_url(value, "leave the key out for no webhook"),
               value.config().webhook.url);
}

bool read_metrics_url(config_value& value) {
  return store(expect_http_url(value, "leave the key out to take it from gitlab-runner's config"),
               value.config().runner.metrics_url);
}

bool read_log_format(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(format_words);
  if (word) value.config().log.format = *word == "json" ? log_format::json : log_format::text;
  return word.has_value();
}

}  // namespace runwarden

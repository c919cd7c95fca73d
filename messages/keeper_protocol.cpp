// See keeper_protocol.hpp.
#include "messages/keeper_protocol.hpp"

#include <charconv>
#include <cstdio>
#include <cstring>

namespace runwarden::keeper_protocol {

namespace {

// snprintf into `out`: the length written, or 0 when it did not fit.
template <typename... Args>
std::size_t print(std::span<char> out, const char* format, Args... args) {
  const int n = std::snprintf(out.data(), out.size(), format, args...);
  if (n < 0 || static_cast<std::size_t>(n) >= out.size()) return 0;
  return static_cast<std::size_t>(n);
}

// A header printed by `print`, then `text` as it is (it may hold any byte).
std::size_t append(std::span<char> out, std::size_t header, std::string_view text) {
  if (header == 0 || header + text.size() > out.size()) return 0;
  std::memcpy(out.data() + header, text.data(), text.size());
  return header + text.size();
}

// Reads the next space-separated number of `rest`, and moves past it.
template <typename Number>
std::optional<Number> take_number(std::string_view& rest) {
  Number value{};
  const auto* end = rest.data() + rest.size();
  const auto [next, error] = std::from_chars(rest.data(), end, value);
  if (error != std::errc{} || next == rest.data()) return std::nullopt;
  if (next != end && *next != ' ') return std::nullopt;
  rest.remove_prefix(static_cast<std::size_t>(next - rest.data()) + (next == end ? 0 : 1));
  return value;
}

std::optional<std::string_view> take_word(std::string_view& rest) {
  const auto space = rest.find(' ');
  const auto word = rest.substr(0, space);
  if (word.empty()) return std::nullopt;
  rest.remove_prefix(space == std::string_view::npos ? rest.size() : space + 1);
  return word;
}

}  // namespace

std::size_t encode_hello(std::span<char> out, bool json_log) {
  return print(out, "hello %d %s", version, json_log ? "json" : "text");
}

std::size_t encode_keeper_hello(std::span<char> out, const runner_report& runner) {
  switch (runner.state) {
    case runner_report::kind::none:
      return print(out, "hello %d none", version);
    case runner_report::kind::running:
      return print(out, "hello %d running %lld", version, static_cast<long long>(runner.pid));
    case runner_report::kind::exited:
      return print(out, "hello %d exited %lld %d %d", version, static_cast<long long>(runner.pid),
                   runner.signaled ? 1 : 0, runner.code);
  }
  return 0;
}

std::size_t encode_exited(std::span<char> out, const exit_report& exit) {
  return print(out, "exited %lld %d %d", static_cast<long long>(exit.pid), exit.signaled ? 1 : 0,
               exit.code);
}

std::size_t encode_number_pair(std::span<char> out, std::string_view kind, std::int64_t first,
                               std::int64_t second) {
  return print(out, "%.*s %lld %lld", static_cast<int>(kind.size()), kind.data(),
               static_cast<long long>(first), static_cast<long long>(second));
}

std::size_t encode_text(std::span<char> out, std::string_view kind, std::string_view text) {
  return append(out, print(out, "%.*s ", static_cast<int>(kind.size()), kind.data()), text);
}

std::size_t encode_line(std::span<char> out, bool stderr_stream, std::int64_t pid,
                        std::uint64_t dropped, std::string_view text) {
  return append(out,
                print(out, "line %s %lld %llu ", stderr_stream ? "err" : "out",
                      static_cast<long long>(pid), static_cast<unsigned long long>(dropped)),
                text);
}

split_message split(std::string_view message) {
  const auto space = message.find(' ');
  if (space == std::string_view::npos) return {message, {}};
  return {message.substr(0, space), message.substr(space + 1)};
}

std::optional<warden_hello> decode_hello(std::string_view rest) {
  const auto spoken = take_number<int>(rest);
  if (!spoken || (rest != "text" && rest != "json")) return std::nullopt;
  return warden_hello{.version = *spoken, .json_log = rest == "json"};
}

std::optional<runner_report> decode_keeper_hello(std::string_view rest) {
  const auto spoken = take_number<int>(rest);
  const auto state = take_word(rest);
  if (!spoken || *spoken != version || !state) return std::nullopt;
  if (*state == "none") return rest.empty() ? std::optional{runner_report{}} : std::nullopt;
  const auto pid = take_number<std::int64_t>(rest);
  if (!pid || *pid <= 0) return std::nullopt;
  if (*state == "running" && rest.empty())
    return runner_report{.state = runner_report::kind::running, .pid = *pid};
  if (*state != "exited") return std::nullopt;
  const auto signaled = take_number<int>(rest);
  const auto code = take_number<int>(rest);
  if (!signaled || !code || !rest.empty()) return std::nullopt;
  return runner_report{
      .state = runner_report::kind::exited, .pid = *pid, .signaled = *signaled != 0, .code = *code};
}

std::optional<exit_report> decode_exited(std::string_view rest) {
  const auto pid = take_number<std::int64_t>(rest);
  const auto signaled = take_number<int>(rest);
  const auto code = take_number<int>(rest);
  if (!pid || !signaled || !code || !rest.empty()) return std::nullopt;
  return exit_report{.pid = *pid, .signaled = *signaled != 0, .code = *code};
}

std::optional<number_pair> decode_number_pair(std::string_view rest) {
  const auto first = take_number<std::int64_t>(rest);
  const auto second = take_number<std::int64_t>(rest);
  if (!first || !second || !rest.empty()) return std::nullopt;
  return number_pair{*first, *second};
}

std::optional<line_report> decode_line(std::string_view rest) {
  const auto stream = take_word(rest);
  const auto pid = take_number<std::int64_t>(rest);
  const auto dropped = take_number<std::uint64_t>(rest);
  if (!stream || (*stream != "out" && *stream != "err") || !pid || !dropped) return std::nullopt;
  return line_report{
      .stderr_stream = *stream == "err", .pid = *pid, .dropped = *dropped, .text = rest};
}

}  // namespace runwarden::keeper_protocol

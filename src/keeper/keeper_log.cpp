// See keeper_log.hpp.
#include "src/keeper/keeper_log.hpp"

#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace runwarden {

namespace {

bool stderr_takes_a_line_now() {
  pollfd stderr_poll{STDERR_FILENO, POLLOUT, 0};
  return ::poll(&stderr_poll, 1, 0) == 1 && (stderr_poll.revents & POLLOUT) != 0;
}

// The keeper's texts are its own, but a path or an error text may hold a quote.
void make_json_safe(char* text) {
  for (; *text != '\0'; ++text)
    if (*text == '"' || *text == '\\' || static_cast<unsigned char>(*text) < 0x20) *text = '?';
}

}  // namespace

void keeper_log::line(const char* format, ...) {
  std::array<char, 512> message{};
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(message.data(), message.size(), format, arguments);
  va_end(arguments);
  const auto now = std::chrono::system_clock::now();
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  std::array<char, 768> out{};
  int length = 0;
  if (json_) {
    make_json_safe(message.data());
    length = std::snprintf(out.data(), out.size(),
                           "{\"time_unix_us\":%lld,\"level\":\"warning\",\"logger\":\"keeper\","
                           "\"msg\":\"%s\"}\n",
                           static_cast<long long>(micros), message.data());
  } else {
    const std::time_t seconds = static_cast<std::time_t>(micros / 1'000'000);
    std::tm local{};
    ::localtime_r(&seconds, &local);
    std::array<char, 32> stamp{};
    std::strftime(stamp.data(), stamp.size(), "%Y-%m-%dT%H:%M:%S", &local);
    length = std::snprintf(out.data(), out.size(), "%s.%03lld warn  keeper: %s\n", stamp.data(),
                           static_cast<long long>(micros / 1000 % 1000), message.data());
  }
  if (length <= 0 || !stderr_takes_a_line_now()) return;
  const auto size = std::min<std::size_t>(static_cast<std::size_t>(length), out.size() - 1);
  (void)!::write(STDERR_FILENO, out.data(), size);
}

int keeper_log::error_exit(const char* what, int error, int exit_code) {
  line("%s: %s", what, std::strerror(error));
  return exit_code;
}

}  // namespace runwarden

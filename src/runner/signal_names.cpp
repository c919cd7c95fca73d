// Signal names for config files and flags. The table lists the standard Linux signals by
// their <csignal> macros rather than asking strsignal, whose text is a description
// ("Quit"), varies by libc and locale, and cannot be parsed back.

#include "src/runner/signal_names.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <csignal>
#include <initializer_list>
#include <span>

namespace runwarden {

namespace {

struct named_signal {
  int number;
  std::string_view name;  // without the "SIG" prefix, as kill -l prints it
};

constexpr std::array<named_signal, 31> standard_signals{{
    {SIGHUP, "HUP"},   {SIGINT, "INT"},       {SIGQUIT, "QUIT"}, {SIGILL, "ILL"},
    {SIGTRAP, "TRAP"}, {SIGABRT, "ABRT"},     {SIGBUS, "BUS"},   {SIGFPE, "FPE"},
    {SIGKILL, "KILL"}, {SIGUSR1, "USR1"},     {SIGSEGV, "SEGV"}, {SIGUSR2, "USR2"},
    {SIGPIPE, "PIPE"}, {SIGALRM, "ALRM"},     {SIGTERM, "TERM"}, {SIGSTKFLT, "STKFLT"},
    {SIGCHLD, "CHLD"}, {SIGCONT, "CONT"},     {SIGSTOP, "STOP"}, {SIGTSTP, "TSTP"},
    {SIGTTIN, "TTIN"}, {SIGTTOU, "TTOU"},     {SIGURG, "URG"},   {SIGXCPU, "XCPU"},
    {SIGXFSZ, "XFSZ"}, {SIGVTALRM, "VTALRM"}, {SIGPROF, "PROF"}, {SIGWINCH, "WINCH"},
    {SIGIO, "IO"},     {SIGPWR, "PWR"},       {SIGSYS, "SYS"},
}};

// Older spellings that parse but are never printed.
constexpr std::array<named_signal, 3> alias_signals{{
    {SIGABRT, "IOT"},
    {SIGIO, "POLL"},
    {SIGCHLD, "CLD"},
}};

// Linux numbers signals 1 to 64 (_NSIG - 1); the upper half are the real-time signals.
constexpr int signal_number_max = 64;

bool equal_ignoring_case(std::string_view left, std::string_view right) {
  if (left.size() != right.size()) return false;
  for (std::size_t index = 0; index < left.size(); ++index) {
    const auto left_char = static_cast<unsigned char>(left[index]);
    const auto right_char = static_cast<unsigned char>(right[index]);
    if (std::toupper(left_char) != std::toupper(right_char)) return false;
  }
  return true;
}

std::optional<int> parse_signal_number(std::string_view text) {
  int number = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, number);
  if (error != std::errc{} || stop != end) return std::nullopt;
  if (number < 1 || number > signal_number_max) return std::nullopt;
  return number;
}

}  // namespace

std::optional<int> parse_signal_name(std::string_view text) {
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text.front())) != 0) {
    return parse_signal_number(text);
  }
  if (text.size() > 3 && equal_ignoring_case(text.substr(0, 3), "SIG")) text.remove_prefix(3);
  for (const auto& table : {std::span<const named_signal>{standard_signals},
                            std::span<const named_signal>{alias_signals}}) {
    for (const named_signal& signal : table) {
      if (equal_ignoring_case(signal.name, text)) return signal.number;
    }
  }
  return std::nullopt;
}

std::string signal_name(int signal_number) {
  for (const named_signal& signal : standard_signals) {
    if (signal.number == signal_number) return fmt::format("SIG{}", signal.name);
  }
  return fmt::format("signal {}", signal_number);
}

}  // namespace runwarden

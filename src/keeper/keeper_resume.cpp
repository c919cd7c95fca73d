// See keeper_resume.hpp. The text: "v1 RUNNER OUT ERR LAST_STATE LAST_PID SIGNALED CODE
// NEXT_SEQUENCE JSON [SEQUENCE:SIGNAL ...]", numbers in decimal.
#include "src/keeper/keeper_resume.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace runwarden::keeper_resume {

bool signals::add(std::uint64_t sequence, int number) {
  if (count_ == count_max) return false;
  items_[count_++] = {sequence, number};
  return true;
}

void signals::remove(std::uint64_t sequence) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < count_; ++i)
    if (items_[i].sequence != sequence) items_[kept++] = items_[i];
  count_ = kept;
}

void to_environment(const state& carried) {
  std::string text = "v1";
  for (const long long number :
       {static_cast<long long>(carried.runner), static_cast<long long>(carried.stdout_fd),
        static_cast<long long>(carried.stderr_fd), static_cast<long long>(carried.last.state),
        static_cast<long long>(carried.last.pid), static_cast<long long>(carried.last.signaled),
        static_cast<long long>(carried.last.code), static_cast<long long>(carried.next_sequence),
        static_cast<long long>(carried.json_log)})
    text += " " + std::to_string(number);
  for (const auto& signal : carried.pending.items())
    text += " " + std::to_string(signal.sequence) + ":" + std::to_string(signal.number);
  ::setenv(variable, text.c_str(), 1);
}

std::optional<state> from_environment() {
  const char* text = std::getenv(variable);
  if (text == nullptr) return std::nullopt;
  std::string copy{text};
  clear_environment();
  state carried;
  int last_state = 0;
  int signaled = 0;
  int json = 0;
  long long last_pid = 0;
  unsigned long long next = 0;
  int used = 0;
  if (std::sscanf(copy.c_str(), "v1 %d %d %d %d %lld %d %d %llu %d%n", &carried.runner,
                  &carried.stdout_fd, &carried.stderr_fd, &last_state, &last_pid, &signaled,
                  &carried.last.code, &next, &json, &used) != 9 ||
      last_state < 0 || last_state > 2)
    return std::nullopt;
  carried.last.state = static_cast<keeper_protocol::runner_report::kind>(last_state);
  carried.last.pid = last_pid;
  carried.last.signaled = signaled != 0;
  carried.next_sequence = next;
  carried.json_log = json != 0;
  for (const char* rest = copy.c_str() + used; *rest != '\0';) {
    unsigned long long sequence = 0;
    int number = 0;
    int taken = 0;
    if (std::sscanf(rest, " %llu:%d%n", &sequence, &number, &taken) != 2) break;
    carried.pending.add(sequence, number);
    rest += taken;
  }
  return carried;
}

void clear_environment() { ::unsetenv(variable); }

}  // namespace runwarden::keeper_resume

// See keeper_program.hpp.
#include "src/keeper/keeper_program.hpp"

#include <sys/auxv.h>
#include <unistd.h>

#include <array>
#include <string_view>
#include <vector>

#include "messages/keeper_protocol.hpp"

namespace runwarden {

std::string own_binary_path() {
  std::array<char, 4096> path{};
  const auto n = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n > 0) return std::string{path.data(), static_cast<std::size_t>(n)};
  const auto* started_as = reinterpret_cast<const char*>(::getauxval(AT_EXECFN));
  if (started_as == nullptr || *started_as == '\0') return {};
  if (*started_as == '/') return started_as;
  if (::getcwd(path.data(), path.size()) == nullptr) return {};
  return std::string{path.data()} + "/" + started_as;
}

bool wants_keeper_program(int argc, char** argv, char** envp) {
  if (argc < 2) return false;
  const std::string_view command = argv[1];
  if (command != "run" && command != "wrapper") return false;
  const auto link = std::string{keeper_protocol::link_variable} + "=";
  for (char** entry = envp; entry != nullptr && *entry != nullptr; ++entry)
    if (std::string_view{*entry}.starts_with(link)) return false;
  return true;
}

void exec_keeper_program(const std::string& warden_binary, char** argv, char** envp) {
  const auto slash = warden_binary.rfind('/');
  if (warden_binary.empty() || warden_binary[0] != '/' || slash == std::string::npos) return;
  const auto naming = std::string{warden_binary_variable} + "=";
  std::vector<char*> environment;
  for (char** entry = envp; entry != nullptr && *entry != nullptr; ++entry)
    if (!std::string_view{*entry}.starts_with(naming)) environment.push_back(*entry);
  auto named = naming + warden_binary;
  environment.push_back(named.data());
  environment.push_back(nullptr);
  const auto directory = warden_binary.substr(0, slash + 1);
  for (const std::string beside : {"", "../libexec/runwarden/"}) {
    const auto candidate = directory + beside + keeper_program_name;
    if (::access(candidate.c_str(), X_OK) == 0)
      ::execve(candidate.c_str(), argv, environment.data());
  }
}

}  // namespace runwarden

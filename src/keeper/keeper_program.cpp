// See keeper_program.hpp.
#include "src/keeper/keeper_program.hpp"

#include <sys/auxv.h>
#include <unistd.h>

#include <array>
#include <cstdlib>

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

void exec_keeper_program(const std::string& warden_binary, char** argv) {
  const auto slash = warden_binary.rfind('/');
  if (warden_binary.empty() || warden_binary[0] != '/' || slash == std::string::npos) return;
  const auto directory = warden_binary.substr(0, slash + 1);
  for (const std::string beside : {"", "../libexec/runwarden/"}) {
    const auto candidate = directory + beside + keeper_program_name;
    if (::access(candidate.c_str(), X_OK) != 0) continue;
    ::setenv(warden_binary_variable, warden_binary.c_str(), 1);
    ::execv(candidate.c_str(), argv);
    ::unsetenv(warden_binary_variable);  // it cannot run here: the next, or runwarden itself
  }
}

}  // namespace runwarden

// A translation unit of a host that is not runwarden: only the public headers, compiled
// with -Wall -Wextra -Wpedantic -Werror (tests/CMakeLists.txt, public_headers_standalone).
#include <runwarden/config.hpp>
#include <runwarden/instance.hpp>
#include <runwarden/status.hpp>

int main() {
  const runwarden::embedded::shutdown_request request{.reason = "compiles"};
  return request.forceful ? 1 : 0;
}

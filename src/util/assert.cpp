// See assert.hpp. stdio rather than the logs: an assertion may fail inside the logging, and
// what it prints must reach stderr before abort whatever state the rest of the process is in.
#include "src/util/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace runwarden::detail {

void assertion_failed(const char* expression, const char* file, int line) noexcept {
  std::fprintf(stderr, "runwarden: assertion failed: %s (%s:%d)\n", expression, file, line);
  std::fflush(stderr);
  std::abort();
}

}  // namespace runwarden::detail

// See openssl_exit.hpp.
#include "src/app/openssl_exit.hpp"

#include <openssl/crypto.h>

#include <cstdio>
#include <cstdlib>

#include "src/util/exit_codes.hpp"

namespace runwarden {

void leave_openssl_cleanup_to_process_exit() {
  if (OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr) == 1) return;
  // Only an allocation failure gets here, before any command has run.
  std::fputs("runwarden: OpenSSL could not be initialized\n", stderr);
  std::exit(exit_software);
}

}  // namespace runwarden

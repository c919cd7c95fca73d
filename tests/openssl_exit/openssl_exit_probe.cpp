// Preloaded (LD_PRELOAD) into runwarden by test_openssl_exit.py. Its constructor runs before
// runwarden's own code, so the exit handler it registers comes before any handler OpenSSL
// registers at its first use; exit handlers run in the reverse order, so this one runs after
// OpenSSL's and says on stderr whether OpenSSL's global state was still there.
// Checked against OpenSSL 3.0: crypto/init.c (OPENSSL_init_crypto fails once OPENSSL_cleanup
// has run, "stopped") and OPENSSL_init_crypto(3) ("OPENSSL_INIT_NO_ATEXIT: By default
// OpenSSL will attempt to clean itself up when the process exits via an atexit handler.
// Using this option suppresses that behaviour.").
#include <openssl/crypto.h>

#include <cstdio>
#include <cstdlib>

namespace {

void report_openssl_state() {
  std::fputs(OPENSSL_init_crypto(0, nullptr) == 1
                 ? "openssl-exit-probe: OpenSSL's state was kept until the process ended\n"
                 : "openssl-exit-probe: OpenSSL's state was cleaned up by its exit handler\n",
             stderr);
}

__attribute__((constructor)) void register_probe() { std::atexit(report_openssl_state); }

}  // namespace

#pragma once
// OpenSSL's own exit handler (OPENSSL_cleanup, registered at its first use) frees its
// global state and its thread-local keys while gRPC's detached EventEngine threads may
// still be ending: a thread that ends after it never frees its error state (a 904-byte leak
// LeakSanitizer reports now and then), and one that ends during it can double-free
// (grpc/grpc#38539). gRPC 1.83 stops OpenSSL from registering that handler
// (grpc/grpc#42608); Debian 12 ships gRPC 1.51, so runwarden's main does the same. Each
// thread then frees its own OpenSSL state as it ends, and the process's exit frees the rest.
//
// Call it first in main, before anything can touch OpenSSL: only OpenSSL's first
// initialization decides whether the handler is registered.
namespace runwarden {

void leave_openssl_cleanup_to_process_exit();

}  // namespace runwarden

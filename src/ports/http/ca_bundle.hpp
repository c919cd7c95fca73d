#pragma once
// Where the system keeps its trusted CA certificates, for a libcurl that was built without a
// default (the static binary's: the path differs between distributions, so none is compiled
// in). Debian's own libcurl names Debian's bundle and is left alone. SSL_CERT_FILE, as
// OpenSSL spells it, wins; then the first bundle that exists from the list Go's crypto/x509
// probes (src/crypto/x509/root_linux.go), which covers Debian, Ubuntu, Fedora, RHEL, Amazon
// Linux, openSUSE and Alpine.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

// The bundle to hand CURLOPT_CAINFO: `certificate_file` (SSL_CERT_FILE) if set, else the
// first of the known bundles for which `exists` holds. Pure, for the tests.
std::optional<std::string> find_ca_bundle(const char* certificate_file,
                                          const std::function<bool(std::string_view)>& exists);

// find_ca_bundle over this system, looked up once; nullopt when libcurl has a default of its
// own (CURLVERSION_NOW's cainfo or capath) and must keep it.
const std::optional<std::string>& system_ca_bundle();

}  // namespace runwarden

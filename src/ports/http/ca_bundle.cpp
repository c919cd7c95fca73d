// See ca_bundle.hpp.
#include "src/ports/http/ca_bundle.hpp"

#include <curl/curl.h>
#include <unistd.h>

#include <array>
#include <cstdlib>

namespace runwarden {

namespace {

// Go's list, in Go's order (root_linux.go, certFiles).
constexpr std::array<std::string_view, 6> known_bundles{
    "/etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Gentoo, Arch
    "/etc/pki/tls/certs/ca-bundle.crt",                   // Fedora, RHEL 6, Amazon Linux
    "/etc/ssl/ca-bundle.pem",                             // openSUSE
    "/etc/pki/tls/cacert.pem",                            // OpenELEC
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // CentOS, RHEL 7 and later
    "/etc/ssl/cert.pem",                                  // Alpine
};

}  // namespace

std::optional<std::string> find_ca_bundle(const char* certificate_file,
                                          const std::function<bool(std::string_view)>& exists) {
  if (certificate_file != nullptr && *certificate_file != '\0') return certificate_file;
  for (const auto bundle : known_bundles) {
    if (exists(bundle)) return std::string{bundle};
  }
  return std::nullopt;
}

const std::optional<std::string>& system_ca_bundle() {
  static const std::optional<std::string> bundle = []() -> std::optional<std::string> {
    const curl_version_info_data* info = curl_version_info(CURLVERSION_NOW);
    if (info != nullptr && info->age >= CURLVERSION_SEVENTH &&
        (info->cainfo != nullptr || info->capath != nullptr)) {
      return std::nullopt;
    }
    return find_ca_bundle(std::getenv("SSL_CERT_FILE"), [](std::string_view path) {
      return ::access(std::string{path}.c_str(), R_OK) == 0;
    });
  }();
  return bundle;
}

}  // namespace runwarden

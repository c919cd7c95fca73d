// The static binary's libcurl has no CA bundle compiled in; find_ca_bundle picks the
// system's as Go's crypto/x509 does: SSL_CERT_FILE first, then the first known bundle that
// exists, so one binary verifies TLS on Debian, RHEL, Amazon Linux and Alpine alike.

#include "src/ports/http/ca_bundle.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

namespace {

auto only(std::set<std::string> present) {
  return [present](std::string_view path) { return present.count(std::string{path}) > 0; };
}

}  // namespace

TEST_CASE("find_ca_bundle takes SSL_CERT_FILE before any bundle on disk", "[http]") {
  CHECK(runwarden::find_ca_bundle("/opt/ca.pem", only({"/etc/ssl/certs/ca-certificates.crt"})) ==
        "/opt/ca.pem");
}

TEST_CASE("find_ca_bundle finds Debian's, Amazon Linux's and Alpine's bundles", "[http]") {
  CHECK(runwarden::find_ca_bundle(nullptr, only({"/etc/ssl/certs/ca-certificates.crt"})) ==
        "/etc/ssl/certs/ca-certificates.crt");
  CHECK(runwarden::find_ca_bundle(
            "", only({"/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"})) ==
        "/etc/pki/tls/certs/ca-bundle.crt");
  CHECK(runwarden::find_ca_bundle(nullptr, only({"/etc/ssl/cert.pem"})) == "/etc/ssl/cert.pem");
}

TEST_CASE("find_ca_bundle finds nothing in an empty root", "[http]") {
  CHECK_FALSE(runwarden::find_ca_bundle(nullptr, only({})).has_value());
}

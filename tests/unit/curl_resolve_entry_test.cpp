// The pin handed to CURLOPT_RESOLVE must be in libcurl's own syntax, with IPv6 addresses in
// brackets; a malformed entry would make libcurl ignore the pin and resolve the name again.

#include "src/ports/http/curl_transfer.hpp"

#include <catch2/catch.hpp>

TEST_CASE("curl_resolve_entry writes host:port:addresses", "[webhook]") {
  using runwarden::resolve_pin;
  CHECK(runwarden::curl_resolve_entry(resolve_pin{"example.com", 443, {"10.0.0.1"}}) ==
        "example.com:443:10.0.0.1");
  CHECK(runwarden::curl_resolve_entry(
            resolve_pin{"localhost", 8080, {"127.0.0.1", "::1", "2001:db8::5"}}) ==
        "localhost:8080:127.0.0.1,[::1],[2001:db8::5]");
}

// HMAC-SHA256 is checked against RFC 4231's published test vectors (cases 1, 2 and 6: a
// short key, a text key, and a key longer than the block size), and the header value against
// the form GitHub-style receivers parse.

#include "src/webhook/body_signature.hpp"

#include <catch2/catch.hpp>
#include <string>

using runwarden::hmac_sha256_hex;

TEST_CASE("hmac_sha256_hex matches RFC 4231", "[signature]") {
  CHECK(hmac_sha256_hex(std::string(20, '\x0b'), "Hi There") ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(hmac_sha256_hex(std::string(131, '\xaa'),
                        "Test Using Larger Than Block-Size Key - Hash Key First") ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("the signature header value is sha256= and lowercase hex", "[signature]") {
  const auto value = runwarden::signature_header_value("Jefe", "what do ya want for nothing?");
  CHECK(value == "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(runwarden::signature_header_name == "X-Runwarden-Signature");
}

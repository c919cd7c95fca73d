// The pieces of the SigV4 signer on their own: encoding, path normalisation (botocore's rules,
// which the suite leaves open: ".." at the root, trailing slashes), query sorting, header
// trimming, the signing key against the example in AWS's documentation, and the headers the
// signer adds and replaces.

#include <catch2/catch.hpp>

#include "src/aws/canonical_headers.hpp"
#include "src/aws/canonical_query.hpp"
#include "src/aws/canonical_uri.hpp"
#include "src/aws/sigv4_signer.hpp"
#include "src/util/sha256_digest.hpp"
#include "src/util/uri_encoding.hpp"

using namespace runwarden;

TEST_CASE("SigV4 percent-encoding keeps only unreserved characters", "[sigv4]") {
  CHECK(uri_encode("aZ09-_.~", slash_encoding::encode) == "aZ09-_.~");
  CHECK(uri_encode("a b/c+d%e=\xe1\x88\xb4", slash_encoding::encode) ==
        "a%20b%2Fc%2Bd%25e%3D%E1%88%B4");
  CHECK(uri_encode("/a b/", slash_encoding::keep) == "/a%20b/");
  CHECK(percent_decode("%E1%88%B4%2f+%zz%4") == "\xe1\x88\xb4/+%zz%4");
}

TEST_CASE("paths are normalised as botocore normalises them", "[sigv4]") {
  CHECK(normalized_path("") == "/");
  CHECK(normalized_path("/") == "/");
  CHECK(normalized_path("//a//b//") == "/a/b/");
  CHECK(normalized_path("/a/./b/../c") == "/a/c");
  CHECK(normalized_path("/../../a") == "/a");
  CHECK(normalized_path("/a/b/..") == "/a");
  CHECK(normalized_path("/a/..") == "/");
  CHECK(canonical_uri("/a%2Fb/ሴ") == "/a%252Fb/%E1%88%B4");
}

TEST_CASE("query parameters sort by encoded name, then encoded value", "[sigv4]") {
  CHECK(canonical_query_string({{"b", "2"}, {"a", "z"}, {"a", "y"}, {"A", ""}, {"a b", "/"}}) ==
        "A=&a=y&a=z&a%20b=%2F&b=2");
  CHECK(canonical_query_string({}).empty());
  const query_parameter_list parsed = parse_query_string("a=1&b=&c&%E1%88%B4=x%20y");
  const query_parameter_list expected{{"a", "1"}, {"b", ""}, {"c", ""}, {"\xe1\x88\xb4", "x y"}};
  CHECK(parsed == expected);
}

TEST_CASE("header values are trimmed and repeated names joined in order", "[sigv4]") {
  CHECK(trimmed_header_value("  a \t b\r\n  c  ") == "a b c");
  const auto block = canonicalize_headers({{"X-B", " 2 "}, {"host", "h"}, {"x-b", "1"}});
  CHECK(block.canonical == "host:h\nx-b:2,1\n");
  CHECK(block.signed_headers == "host;x-b");
}

TEST_CASE("the signing key matches AWS's documented example", "[sigv4]") {
  // From the SigV4 documentation's "Examples of how to derive a signing key".
  const auto key = sigv4_signing_key(secret_text{"wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"},
                                     "20120215", {"us-east-1", "iam"});
  CHECK(lowercase_hex(key) == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d");
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("the signer adds its headers and replaces stale copies", "[sigv4]") {
  const sigv4_request request{"POST",
                              "/",
                              {},
                              {{"Host", "example.amazonaws.com"},
                               {"x-amz-date", "19990101T000000Z"},
                               {"Authorization", "old"},
                               {"X-Amz-Security-Token", "old-token"}},
                              sha256_hex("")};
  const aws_credentials credentials{"AKID", secret_text{"secret"}, secret_text{"new-token"}};
  const auto time = std::chrono::sys_days{std::chrono::year{2015} / 8 / 30} +
                    std::chrono::hours{12} + std::chrono::minutes{36};
  const auto signature = sign_sigv4(request, credentials, {"us-east-1", "service"}, time);
  REQUIRE(signature.headers_to_add.size() == 3);
  CHECK(signature.headers_to_add[0] == header_list::value_type{"X-Amz-Date", "20150830T123600Z"});
  CHECK(signature.headers_to_add[1] ==
        header_list::value_type{"X-Amz-Security-Token", "new-token"});
  CHECK(signature.headers_to_add[2].first == "Authorization");
  CHECK(signature.headers_to_add[2].second == signature.authorization);
  CHECK(signature.canonical_request.find("old") == std::string::npos);
  CHECK_THAT(signature.authorization,
             Catch::Contains("SignedHeaders=host;x-amz-date;x-amz-security-token, Signature="));
  CHECK(amz_date(time + std::chrono::milliseconds{999}) == "20150830T123600Z");
}

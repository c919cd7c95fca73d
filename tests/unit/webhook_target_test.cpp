// Webhook and callback targets are checked against two tables: URLs (what parses, and the
// words each refusal must contain, without the path or query that may carry a token), and
// addresses (which ones the link-local policy refuses, in every spelling that matters).

#include "src/webhook/webhook_target.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "src/webhook/address_policy.hpp"

namespace {

using namespace runwarden;

struct good_url {
  std::string url;
  std::string scheme;
  std::string host;
  std::uint16_t port;
  bool host_is_address;
};

struct bad_url {
  std::string url;
  std::string error_part;
};

}  // namespace

TEST_CASE("parse_webhook_target accepts http and https URLs with a host", "[webhook]") {
  const auto row = GENERATE(values<good_url>({
      {"https://hooks.example.com/runwarden?token=s3cret", "https", "hooks.example.com", 443,
       false},
      {"http://127.0.0.1:8080/hook", "http", "127.0.0.1", 8080, true},
      {"HTTP://Example.COM:99/a", "http", "Example.COM", 99, false},
      {"http://169.254.169.254/latest/meta-data/", "http", "169.254.169.254", 80, true},
      {"http://[fe80::1]/", "http", "fe80::1", 80, true},
      {"http://[fd00:ec2::254]/", "http", "fd00:ec2::254", 80, true},
      // libcurl normalises numeric IPv4 spellings, so the policy sees the real address.
      {"http://2852039166/", "http", "169.254.169.254", 80, true},
      {"http://0xa9.0xfe.0xa9.0xfe/", "http", "169.254.169.254", 80, true},
  }));
  CAPTURE(row.url);
  const auto parsed = parse_webhook_target(row.url);
  REQUIRE(parsed.error.empty());
  REQUIRE(parsed.target);
  CHECK(parsed.target->url == row.url);
  CHECK(parsed.target->scheme == row.scheme);
  CHECK(parsed.target->host == row.host);
  CHECK(parsed.target->port == row.port);
  CHECK(parsed.target->host_is_address == row.host_is_address);
}

TEST_CASE("parse_webhook_target refuses other schemes, missing hosts and user information",
          "[webhook]") {
  const auto row = GENERATE(values<bad_url>({
      {"", "empty"},
      {"ftp://files.example.com/drop", "scheme \"ftp\" is not allowed (ftp://files.example.com)"},
      {"file:///etc/passwd", "scheme \"file\" is not allowed"},
      {"gopher://example.com/", "only http and https"},
      {"example.com/hook", "cannot be parsed"},
      {"http://", "cannot be parsed: No host part"},
      {"http://:80/hook", "cannot be parsed: No host part"},
      {"https://user:hunter2@example.com/?token=abc",
       "user information in the URL is not allowed (https://example.com)"},
      {"https://user@example.com/", "user information"},
      {"https://:hunter2@example.com/", "user information"},
  }));
  CAPTURE(row.url);
  const auto parsed = parse_webhook_target(row.url);
  CHECK_FALSE(parsed.target);
  CHECK_THAT(parsed.error, Catch::Contains(row.error_part));
  CHECK_THAT(parsed.error, !Catch::Contains("hunter2"));
  CHECK_THAT(parsed.error, !Catch::Contains("token"));
}

TEST_CASE("the label names scheme, host and port only", "[webhook]") {
  CHECK(parse_webhook_target("https://example.com/a?token=x").target->label() ==
        "https://example.com:443");
  CHECK(parse_webhook_target("http://[::1]:9/").target->label() == "http://[::1]:9");
}

TEST_CASE("link-local and metadata addresses are refused in every spelling", "[webhook]") {
  const auto refused =
      GENERATE(as<std::string>{}, "169.254.169.254", "169.254.0.1", "169.254.255.255", "fe80::1",
               "fe80::a9ff:fe46:b619", "febf:ffff::1", "fd00:ec2::254", "fd00:ec2:0:0::254",
               "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "not-an-address");
  CAPTURE(refused);
  CHECK(is_refused_address(refused));
}

TEST_CASE("every major cloud's metadata address is refused", "[webhook][metadata]") {
  // EC2/GCP/Azure/OpenStack/Oracle/IBM (169.254.169.254), ECS task metadata (169.254.170.2),
  // Tencent (169.254.0.23), Alibaba (100.100.100.200), Oracle legacy (192.0.0.192), Azure
  // WireServer (168.63.129.16), EC2 IPv6 (fd00:ec2::254), GCE IPv6 (fd20:ce::254).
  const auto refused = GENERATE(as<std::string>{}, "169.254.169.254", "169.254.170.2",
                                "169.254.0.23", "100.100.100.200", "192.0.0.192", "168.63.129.16",
                                "fd00:ec2::254", "fd20:ce::254", "fd20:00ce:0000::0254");
  CAPTURE(refused);
  CHECK(is_refused_address(refused));
}

TEST_CASE("IPv6 forms that embed an IPv4 address are judged by it", "[webhook][metadata]") {
  const auto refused =
      GENERATE(as<std::string>{}, "::ffff:169.254.169.254", "::ffff:a9fe:a9fe",
               "::ffff:100.100.100.200",                                              // mapped
               "::a9fe:a9fe", "::169.254.169.254", "::6464:64c8", "::192.0.0.192",    // compatible
               "::ffff:0:a9fe:a9fe",                                                  // SIIT
               "64:ff9b::a9fe:a9fe", "64:ff9b::169.254.170.2", "64:ff9b::6464:64c8",  // NAT64 /96
               "64:ff9b:1::a9fe:a9fe", "64:ff9b:1:a9fe:a9:fe00::",  // local /96, /48
               "64:ff9b:1:a9:fe:a9fe::",                            // local /56
               "2002:a9fe:a9fe::1", "2002:6464:64c8:1::5",          // 6to4
               "2001:0:4136:e378:8000:63bf:5601:5601",  // Teredo client 169.254.169.254 (flipped)
               "2001:0:a9fe:a9fe:8000:63bf:3fff:fdd2",  // Teredo server 169.254.169.254
               "fd00::5efe:a9fe:a9fe", "2001:db8::200:5efe:6464:64c8");  // ISATAP
  CAPTURE(refused);
  CHECK(is_refused_address(refused));
}

TEST_CASE("embedded ordinary IPv4 addresses still pass", "[webhook][metadata]") {
  const auto allowed =
      GENERATE(as<std::string>{}, "::ffff:8.8.8.8", "::808:808", "64:ff9b::808:808",
               "64:ff9b:1::808:808", "2002:808:808::1",
               "2001:0:4136:e378:8000:63bf:3fff:fdd2",  // RFC 4380's example
               "fd00::5efe:808:808", "100.100.100.201", "192.0.0.193", "::", "64:ff9b::");
  CAPTURE(allowed);
  CHECK_FALSE(is_refused_address(allowed));
}

TEST_CASE("metadata host names are known in any spelling", "[webhook][metadata]") {
  CHECK(is_metadata_host_name("metadata.google.internal"));
  CHECK(is_metadata_host_name("Metadata.Google.Internal."));
  CHECK(is_metadata_host_name("instance-data.ec2.internal"));
  CHECK(is_metadata_host_name("metadata.tencentyun.com"));
  CHECK_FALSE(is_metadata_host_name("metadata.example.com"));
}

TEST_CASE("ordinary addresses pass the link-local policy", "[webhook]") {
  const auto allowed =
      GENERATE(as<std::string>{}, "127.0.0.1", "10.0.0.1", "169.253.255.255", "169.255.0.1",
               "8.8.8.8", "::1", "fec0::1", "fe7f::1", "fd00:ec2::253", "fd00:ec2::2540",
               "2001:db8::1", "::ffff:10.0.0.1");
  CAPTURE(allowed);
  CHECK_FALSE(is_refused_address(allowed));
}

TEST_CASE("check_target_addresses refuses if any address is refused, unless allowed", "[webhook]") {
  const auto target = *parse_webhook_target("https://hooks.example.com/x?token=t").target;
  const std::vector<std::string> mixed{"93.184.216.34", "169.254.169.254"};
  const auto refusal = check_target_addresses(target, mixed, false);
  REQUIRE(refusal);
  CHECK_THAT(*refusal, Catch::Contains("https://hooks.example.com:443 resolves to "
                                       "169.254.169.254"));
  CHECK_THAT(*refusal, Catch::Contains("allow_link_local"));
  CHECK_THAT(*refusal, !Catch::Contains("token"));
  CHECK_FALSE(check_target_addresses(target, mixed, true));
  CHECK_FALSE(check_target_addresses(target, {"93.184.216.34", "2606:2800::1"}, false));
  CHECK(check_target_addresses(target, {}, true));
}

TEST_CASE("a numeric link-local URL is refused without naming a lookup", "[webhook]") {
  const auto url = GENERATE(as<std::string>{}, "http://169.254.169.254/", "http://[fe80::1]/",
                            "http://[fd00:ec2::254]/");
  CAPTURE(url);
  const auto target = *parse_webhook_target(url).target;
  const auto refusal = check_target_addresses(target, {target.host}, false);
  REQUIRE(refusal);
  CHECK_THAT(*refusal, !Catch::Contains("resolves to"));
  CHECK_THAT(*refusal, Catch::Contains("link-local or instance metadata"));
}

TEST_CASE("pins bind a name to the checked addresses, numeric hosts need none", "[webhook]") {
  const auto named = *parse_webhook_target("https://hooks.example.com:8443/x").target;
  const auto pins = pins_for(named, {"10.0.0.7", "2001:db8::7"});
  REQUIRE(pins.size() == 1);
  CHECK(pins[0].host == "hooks.example.com");
  CHECK(pins[0].port == 8443);
  CHECK(pins[0].addresses == std::vector<std::string>{"10.0.0.7", "2001:db8::7"});
  const auto numeric = *parse_webhook_target("http://10.0.0.7/").target;
  CHECK(pins_for(numeric, {"10.0.0.7"}).empty());
}

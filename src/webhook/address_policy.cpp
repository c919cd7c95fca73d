// See address_policy.hpp. Addresses are compared as bytes after inet_pton, never as text,
// since one address has many spellings ("fd00:ec2:0::254", "::ffff:a9fe:a9fe").
#include "src/webhook/address_policy.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

using v4_bytes = std::array<std::uint8_t, 4>;

// Link-local 169.254.0.0/16 holds the metadata services of EC2, GCP, Azure, OpenStack,
// DigitalOcean, Oracle and IBM (169.254.169.254), ECS's task metadata (169.254.170.2) and
// Tencent's (169.254.0.23). The rest are metadata addresses outside it: Alibaba Cloud's
// 100.100.100.200, Oracle Cloud's legacy 192.0.0.192 and Azure's WireServer 168.63.129.16,
// which hands out certificates and the VM's configuration.
bool is_refused_v4(const v4_bytes& bytes) {
  if (bytes[0] == 169 && bytes[1] == 254) return true;
  constexpr std::array<v4_bytes, 3> metadata{v4_bytes{100, 100, 100, 200}, v4_bytes{192, 0, 0, 192},
                                             v4_bytes{168, 63, 129, 16}};
  return std::find(metadata.begin(), metadata.end(), bytes) != metadata.end();
}

v4_bytes v4_at(const std::uint8_t* bytes) { return {bytes[0], bytes[1], bytes[2], bytes[3]}; }

bool has_prefix(const in6_addr& address, std::initializer_list<std::uint8_t> prefix) {
  return std::equal(prefix.begin(), prefix.end(), address.s6_addr);
}

bool equals_v6(const in6_addr& address, const char* text) {
  in6_addr other{};
  const int parsed = ::inet_pton(AF_INET6, text, &other);
  RUNWARDEN_ASSERT(parsed == 1);
  return std::memcmp(&address, &other, sizeof address) == 0;
}

// RFC 6052 section 2.2: where a NAT64 prefix of each length puts the IPv4 address (bits
// 64..71, the "u" octet, are skipped). The local-use 64:ff9b:1::/48 (RFC 8215) may be split
// into prefixes of any of these lengths, so every placement is judged.
bool embeds_refused_by_rfc6052(const std::uint8_t* bytes) {
  const std::array<v4_bytes, 4> placements{
      v4_bytes{bytes[6], bytes[7], bytes[9], bytes[10]},    // /48
      v4_bytes{bytes[7], bytes[9], bytes[10], bytes[11]},   // /56
      v4_bytes{bytes[9], bytes[10], bytes[11], bytes[12]},  // /64
      v4_at(bytes + 12)};                                   // /96
  return std::any_of(placements.begin(), placements.end(), is_refused_v4);
}

// The IPv6 forms that carry an IPv4 address, each judged by that address: whatever the
// form, the packets end at the IPv4 host (through a translator, a tunnel or the kernel).
bool embeds_refused_v4(const in6_addr& address) {
  const auto* bytes = address.s6_addr;
  const auto zero_until = [&](std::size_t end) {
    return std::all_of(bytes, bytes + end, [](std::uint8_t b) { return b == 0; });
  };
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (SIIT, RFC 2765).
  if (zero_until(10) && bytes[10] == 0xff && bytes[11] == 0xff)
    return is_refused_v4(v4_at(bytes + 12));
  if (zero_until(12)) return is_refused_v4(v4_at(bytes + 12));
  if (zero_until(8) && bytes[8] == 0xff && bytes[9] == 0xff && bytes[10] == 0 && bytes[11] == 0)
    return is_refused_v4(v4_at(bytes + 12));
  // NAT64: the well-known 64:ff9b::/96 (RFC 6052) and the local-use 64:ff9b:1::/48.
  if (has_prefix(address, {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0}))
    return is_refused_v4(v4_at(bytes + 12));
  if (has_prefix(address, {0, 0x64, 0xff, 0x9b, 0, 1})) return embeds_refused_by_rfc6052(bytes);
  // 6to4 2002:AABB:CCDD::/16 (RFC 3056): the gateway's address follows the prefix.
  if (has_prefix(address, {0x20, 0x02})) return is_refused_v4(v4_at(bytes + 2));
  // Teredo 2001:0::/32 (RFC 4380): the server's address, then the client's with every bit
  // flipped in the last 32 bits. Both are judged.
  if (has_prefix(address, {0x20, 0x01, 0, 0})) {
    const v4_bytes client{
        static_cast<std::uint8_t>(~bytes[12]), static_cast<std::uint8_t>(~bytes[13]),
        static_cast<std::uint8_t>(~bytes[14]), static_cast<std::uint8_t>(~bytes[15])};
    return is_refused_v4(client) || is_refused_v4(v4_at(bytes + 4));
  }
  // ISATAP (RFC 5214): an interface identifier of 0000:5efe or 0200:5efe, then the address.
  if ((bytes[8] & 0xfd) == 0 && bytes[9] == 0 && bytes[10] == 0x5e && bytes[11] == 0xfe)
    return is_refused_v4(v4_at(bytes + 12));
  return false;
}

bool is_refused_v6(const in6_addr& address) {
  const auto* bytes = address.s6_addr;
  if (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80) return true;  // fe80::/10
  // EC2's IPv6 metadata address (Nitro) and Google Compute Engine's (IPv6-only VMs).
  if (equals_v6(address, "fd00:ec2::254") || equals_v6(address, "fd20:ce::254")) return true;
  return embeds_refused_v4(address);
}

}  // namespace

bool is_refused_address(const std::string& address) {
  in_addr v4{};
  if (::inet_pton(AF_INET, address.c_str(), &v4) == 1)
    return is_refused_v4(v4_at(reinterpret_cast<const std::uint8_t*>(&v4.s_addr)));
  in6_addr v6{};
  if (::inet_pton(AF_INET6, address.c_str(), &v6) == 1) return is_refused_v6(v6);
  return true;
}

bool is_metadata_host_name(std::string_view name) {
  std::string host{name};
  std::transform(host.begin(), host.end(), host.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  while (host.ends_with('.')) host.pop_back();
  // GCP's names, EC2's, Tencent Cloud's and IBM Cloud's (VPC) metadata service names.
  constexpr std::string_view names[] = {"metadata.google.internal",
                                        "metadata",
                                        "instance-data",
                                        "instance-data.ec2.internal",
                                        "metadata.tencentyun.com",
                                        "api.metadata.cloud.ibm.com"};
  return std::find(std::begin(names), std::end(names), host) != std::end(names);
}

std::optional<std::string> check_target_addresses(const webhook_target& target,
                                                  const std::vector<std::string>& addresses,
                                                  bool allow_link_local) {
  if (addresses.empty()) return target.label() + " has no address to connect to";
  if (allow_link_local) return std::nullopt;
  for (const auto& address : addresses) {
    if (!is_refused_address(address)) continue;
    const auto what =
        address == target.host ? std::string{" is"} : " resolves to " + address + ", which is";
    return target.label() + what +
           " a link-local or instance metadata address; refused unless allow_link_local is set";
  }
  return std::nullopt;
}

std::vector<resolve_pin> pins_for(const webhook_target& target,
                                  const std::vector<std::string>& addresses) {
  RUNWARDEN_ASSERT(!addresses.empty());
  if (target.host_is_address) return {};
  return {resolve_pin{target.host, target.port, addresses}};
}

}  // namespace runwarden

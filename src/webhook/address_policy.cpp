// See address_policy.hpp. Addresses are compared as bytes after inet_pton, never as text,
// since one address has many spellings ("fd00:ec2:0::254", "::ffff:a9fe:a9fe").
#include "src/webhook/address_policy.hpp"

#include <arpa/inet.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

bool is_link_local_v4(const std::uint8_t* bytes) { return bytes[0] == 169 && bytes[1] == 254; }

bool is_refused_v6(const in6_addr& address) {
  const auto* bytes = address.s6_addr;
  if (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80) return true;  // fe80::/10
  constexpr std::array<std::uint8_t, 10> mapped_prefix{};          // ::ffff:a.b.c.d
  if (std::memcmp(bytes, mapped_prefix.data(), mapped_prefix.size()) == 0 && bytes[10] == 0xff &&
      bytes[11] == 0xff)
    return is_link_local_v4(bytes + 12);
  in6_addr metadata{};
  const int parsed = ::inet_pton(AF_INET6, "fd00:ec2::254", &metadata);
  RUNWARDEN_ASSERT(parsed == 1);
  return std::memcmp(&address, &metadata, sizeof address) == 0;
}

}  // namespace

bool is_refused_address(const std::string& address) {
  in_addr v4{};
  if (::inet_pton(AF_INET, address.c_str(), &v4) == 1)
    return is_link_local_v4(reinterpret_cast<const std::uint8_t*>(&v4.s_addr));
  in6_addr v6{};
  if (::inet_pton(AF_INET6, address.c_str(), &v6) == 1) return is_refused_v6(v6);
  return true;
}

std::optional<std::string> check_target_addresses(const webhook_target& target,
                                                  const std::vector<std::string>& addresses,
                                                  bool allow_link_local) {
  if (addresses.empty()) return target.label() + " has no address to connect to";
  if (allow_link_local) return std::nullopt;
  for (const auto& address : addresses) {
    if (!is_refused_address(address)) continue;
    const auto what = address == target.host ? std::string{" is"}
                                             : " resolves to " + address + ", which is";
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

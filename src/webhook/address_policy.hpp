#pragma once
// Which addresses a webhook or callback may reach. Callbacks arrive through the control API,
// so whoever can call it could aim runwarden's requests at the instance metadata service.
// Link-local addresses (169.254.0.0/16 and fe80::/10, where most clouds' metadata services
// live), the other clouds' metadata addresses (Alibaba's 100.100.100.200, Oracle's legacy
// 192.0.0.192, Azure's WireServer, EC2's fd00:ec2::254, GCE's fd20:ce::254) are refused unless
// the operator allows them. Every IPv6 form that carries an IPv4 address (mapped, compatible,
// NAT64, 6to4, Teredo, ISATAP) is judged by the IPv4 address inside.
// The addresses checked are then pinned for the request, so that DNS cannot answer
// differently between the check and the connection.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/util/http_exchange.hpp"
#include "src/webhook/webhook_target.hpp"

namespace runwarden {

// True for the addresses refused without allow_link_local. `address` is numeric; text that
// is no address counts as refused, since it cannot be shown harmless.
bool is_refused_address(const std::string& address);

// True for the host names the clouds' metadata services answer on ("metadata.google.internal",
// "instance-data", ...), in any case and with or without the trailing dot. Their addresses
// are refused once resolved; the name lets a refusal come before any lookup.
bool is_metadata_host_name(std::string_view name);

// Nullopt when every address may be used; otherwise the reason, naming the target by its
// label and the first refused address.
std::optional<std::string> check_target_addresses(const webhook_target& target,
                                                  const std::vector<std::string>& addresses,
                                                  bool allow_link_local);

// The pins that make the request use exactly `addresses`; none for a numeric host, which
// libcurl never looks up.
std::vector<resolve_pin> pins_for(const webhook_target& target,
                                  const std::vector<std::string>& addresses);

}  // namespace runwarden

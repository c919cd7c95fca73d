// See in_cluster_address.hpp. Names are checked, since they go into the request's path
// unescaped.
#include "src/kubernetes/in_cluster_address.hpp"

#include <algorithm>
#include <cctype>

namespace runwarden {

namespace {

std::string trimmed(std::string text) {
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!text.empty() && space(static_cast<unsigned char>(text.back()))) text.pop_back();
  const auto first = std::find_if_not(text.begin(), text.end(), space);
  return std::string{first, text.end()};
}

std::string value_of(const environment_map& environment, const std::string& name) {
  const auto found = environment.find(name);
  return found == environment.end() ? std::string{} : trimmed(found->second);
}

in_cluster_lookup refused(std::string error) { return {std::nullopt, "kubernetes: " + error}; }

std::string api_url_of(const kubernetes_settings& settings, const environment_map& environment) {
  if (!settings.api_url.empty()) {
    std::string url = settings.api_url;
    while (url.ends_with('/')) url.pop_back();
    return url;
  }
  const std::string host = value_of(environment, "KUBERNETES_SERVICE_HOST");
  const std::string port = value_of(environment, "KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty()) return {};
  // An IPv6 service address is written in brackets, as client-go's net.JoinHostPort does.
  const bool ipv6 = host.find(':') != std::string::npos;
  return "https://" + (ipv6 ? "[" + host + "]" : host) + ":" + port;
}

}  // namespace

bool is_object_name(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(name.front()) || !alnum(name.back())) return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return alnum(c) || c == '-' || c == '.'; });
}

in_cluster_lookup find_in_cluster(const kubernetes_settings& settings,
                                  const environment_map& environment,
                                  const std::optional<std::string>& namespace_file_text) {
  const std::string directory = settings.service_account_directory;
  in_cluster_address address{.api_url = api_url_of(settings, environment),
                             .pod_namespace = settings.pod_namespace,
                             .pod_name = settings.pod_name,
                             .token_file = directory + "/token",
                             .ca_file = directory + "/ca.crt"};
  if (address.api_url.empty())
    return refused(
        "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (not in a "
        "pod?); set kubernetes.api_url");
  if (!address.api_url.starts_with("https://"))
    return refused("the API server's URL must be https://: " + address.api_url);
  if (address.pod_namespace.empty()) {
    if (!namespace_file_text)
      return refused("cannot read " + directory + "/namespace; set kubernetes.namespace");
    address.pod_namespace = trimmed(*namespace_file_text);
  }
  if (address.pod_name.empty()) address.pod_name = value_of(environment, "POD_NAME");
  if (address.pod_name.empty())
    return refused(
        "the pod's name is unknown: give the container POD_NAME from the downward "
        "API (fieldRef metadata.name), or set kubernetes.pod_name");
  if (!is_object_name(address.pod_namespace))
    return refused("\"" + address.pod_namespace + "\" is not a namespace name");
  if (!is_object_name(address.pod_name))
    return refused("\"" + address.pod_name + "\" is not a pod name");
  return {std::move(address), {}};
}

}  // namespace runwarden

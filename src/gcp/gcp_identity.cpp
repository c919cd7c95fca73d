// See gcp_identity.hpp. Only the last segment of each path is shown: the project number
// says nothing the operator does not know.
#include "src/gcp/gcp_identity.hpp"

#include "src/util/log_quote.hpp"

namespace runwarden {

namespace {

std::string_view last_segment(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string describe(const gcp_identity& identity) {
  std::string text = "instance " + log_quote(identity.instance_id);
  if (!identity.name.empty()) text += " (" + log_quote(identity.name) + ")";
  if (!identity.zone_path.empty()) text += " in " + log_quote(last_segment(identity.zone_path));
  if (identity.created_by.find("/instanceGroupManagers/") != std::string::npos)
    text += ", managed instance group " + log_quote(last_segment(identity.created_by));
  return text;
}

}  // namespace runwarden

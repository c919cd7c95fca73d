// See shared_credentials_file.hpp.
#include "src/aws/shared_credentials_file.hpp"

#include <boost/property_tree/ini_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <sstream>

namespace runwarden {

namespace {

std::optional<std::string> value_of(const boost::property_tree::ptree& section, const char* key) {
  // find() looks up one child by its exact key; a path lookup would split profile names
  // and keys at '.'.
  const auto found = section.find(key);
  if (found == section.not_found() || found->second.data().empty()) return std::nullopt;
  return found->second.data();
}

}  // namespace

std::string shared_credentials_path(const environment_map& environment) {
  const auto file = environment.find("AWS_SHARED_CREDENTIALS_FILE");
  if (file != environment.end() && !file->second.empty()) return file->second;
  const auto home = environment.find("HOME");
  if (home != environment.end() && !home->second.empty()) return home->second + "/.aws/credentials";
  return {};
}

std::string credentials_profile(const environment_map& environment) {
  const auto profile = environment.find("AWS_PROFILE");
  return profile != environment.end() && !profile->second.empty() ? profile->second : "default";
}

credentials_lookup credentials_from_shared_file(std::string_view content, const std::string& path,
                                                const std::string& profile) {
  const std::string file = "the shared credentials file " + path;
  boost::property_tree::ptree tree;
  std::istringstream stream{std::string{content}};
  try {
    boost::property_tree::ini_parser::read_ini(stream, tree);
  } catch (const boost::property_tree::ini_parser_error& problem) {
    // message() is the parser's own wording ("'=' character not found in line"); it never
    // quotes the line, which could hold a key.
    return {std::nullopt,
            file + ", line " + std::to_string(problem.line()) + ": " + problem.message()};
  }
  const auto section = tree.find(profile);
  if (section == tree.not_found())
    return {std::nullopt, file + " has no profile [" + profile + "]"};
  const std::string where = file + ", profile [" + profile + "]";
  const auto key_id = value_of(section->second, "aws_access_key_id");
  const auto secret = value_of(section->second, "aws_secret_access_key");
  if (!key_id) return {std::nullopt, where + " has no aws_access_key_id"};
  if (!secret) return {std::nullopt, where + " has no aws_secret_access_key"};
  aws_credentials credentials{*key_id, secret_text{*secret}, std::nullopt};
  if (const auto token = value_of(section->second, "aws_session_token"))
    credentials.session_token = secret_text{*token};
  return {std::move(credentials), {}};
}

}  // namespace runwarden

// See query_form.hpp.
#include "src/util/form_encoding.hpp"

#include <curl/curl.h>

#include <algorithm>

#include "src/util/uri_encoding.hpp"

namespace runwarden {

namespace {

// uri_encode writes a space as "%20" and nothing else as that text (a literal "%20" in the
// input becomes "%2520"), so replacing it gives the form encoding's '+'.
std::string form_encode_component(std::string_view text) {
  const std::string encoded = uri_encode(text, slash_encoding::encode);
  std::string form;
  form.reserve(encoded.size());
  for (std::size_t at = 0; at < encoded.size(); ++at) {
    if (encoded.compare(at, 3, "%20") == 0) {
      form.push_back('+');
      at += 2;
    } else {
      form.push_back(encoded[at]);
    }
  }
  return form;
}

}  // namespace

std::string form_encode(const form_parameter_list& parameters) {
  std::string body;
  for (const auto& [name, value] : parameters) {
    if (!body.empty()) body.push_back('&');
    body.append(form_encode_component(name)).append("=").append(form_encode_component(value));
  }
  return body;
}

form_parameter_list form_decode(std::string_view body) {
  const auto unescape = [](std::string_view text) {
    std::string spaced{text};
    std::replace(spaced.begin(), spaced.end(), '+', ' ');
    int length = 0;
    char* raw =
        curl_easy_unescape(nullptr, spaced.data(), static_cast<int>(spaced.size()), &length);
    std::string result = raw ? std::string{raw, static_cast<std::size_t>(length)} : std::string{};
    curl_free(raw);
    return result;
  };
  form_parameter_list parameters;
  while (!body.empty()) {
    const auto end = body.find('&');
    const auto pair = body.substr(0, end);
    const auto equals = pair.find('=');
    parameters.emplace_back(
        unescape(pair.substr(0, equals)),
        equals == std::string_view::npos ? "" : unescape(pair.substr(equals + 1)));
    body = end == std::string_view::npos ? std::string_view{} : body.substr(end + 1);
  }
  return parameters;
}

}  // namespace runwarden

// See query_form.hpp.
#include "src/util/form_encoding.hpp"

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

}  // namespace runwarden

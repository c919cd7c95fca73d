// See webhook_secret.hpp.
#include "src/webhook/webhook_secret.hpp"

#include "src/util/secret_file.hpp"

namespace runwarden {

secret_read_result read_webhook_secret(const std::string& path) {
  auto read = read_secret_file(path, "webhook secret file");
  return {std::move(read.secret), std::move(read.error)};
}

}  // namespace runwarden

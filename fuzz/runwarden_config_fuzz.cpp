// libFuzzer target for runwarden's own TOML config (parse_config_text: toml++ and then the
// schema's checks of every key). Any text gives settings or errors, never both and never
// neither, and every error names the file and a line, as the operator reads them.
#include <string>

#include "fuzz/fuzz_promise.hpp"
#include "src/config/config_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const config_result result = parse_config_text(fuzz::as_text(data, size), "fuzz.toml");
  fuzz::require(result.config.has_value() == result.errors.empty());
  for (const std::string& error : result.errors) fuzz::require(error.starts_with("fuzz.toml:"));
  return 0;
}

#pragma once
// A whole file's bytes, for tests that compare or parse files: test data, journals.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace runwarden::testing {

inline std::string file_bytes(const std::filesystem::path& file) {
  std::ifstream in{file, std::ios::binary};
  REQUIRE(in);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace runwarden::testing

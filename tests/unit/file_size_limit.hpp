#pragma once
// A disk that fills up, for tests of the journal's writes: a file size limit (RLIMIT_FSIZE)
// makes write() stop part way and then fail with EFBIG, as a disk filling up mid-record
// does. SIGXFSZ is ignored meanwhile so that the process is told by errno instead of killed.
// Both are put back when the scope ends.

#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <csignal>

namespace runwarden::testing {

class file_size_limit {
 public:
  explicit file_size_limit(rlim_t bytes) {
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &before_) == 0);
    signal_before_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = before_;
    limited.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
  }
  ~file_size_limit() {
    ::setrlimit(RLIMIT_FSIZE, &before_);
    std::signal(SIGXFSZ, signal_before_);
  }
  file_size_limit(const file_size_limit&) = delete;
  file_size_limit& operator=(const file_size_limit&) = delete;

 private:
  rlimit before_{};
  void (*signal_before_)(int) = SIG_DFL;
};

}  // namespace runwarden::testing

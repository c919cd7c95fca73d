// Signal names are checked in both directions against the numbers <csignal> gives, so the
// tests hold on any Linux architecture, and every printed name must parse back.

#include "src/runner/signal_names.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <string>

TEST_CASE("parse_signal_name accepts names with or without SIG, in any case", "[signal]") {
  CHECK(runwarden::parse_signal_name("SIGQUIT") == SIGQUIT);
  CHECK(runwarden::parse_signal_name("QUIT") == SIGQUIT);
  CHECK(runwarden::parse_signal_name("sigquit") == SIGQUIT);
  CHECK(runwarden::parse_signal_name("Quit") == SIGQUIT);
  CHECK(runwarden::parse_signal_name("SIGTERM") == SIGTERM);
  CHECK(runwarden::parse_signal_name("term") == SIGTERM);
  CHECK(runwarden::parse_signal_name("SIGKILL") == SIGKILL);
  CHECK(runwarden::parse_signal_name("SIGINT") == SIGINT);
  CHECK(runwarden::parse_signal_name("SIGUSR1") == SIGUSR1);
  CHECK(runwarden::parse_signal_name("usr2") == SIGUSR2);
  CHECK(runwarden::parse_signal_name("SIGWINCH") == SIGWINCH);
  CHECK(runwarden::parse_signal_name("SIGSYS") == SIGSYS);
}

TEST_CASE("parse_signal_name accepts the old aliases", "[signal]") {
  CHECK(runwarden::parse_signal_name("SIGIOT") == SIGABRT);
  CHECK(runwarden::parse_signal_name("SIGPOLL") == SIGIO);
  CHECK(runwarden::parse_signal_name("CLD") == SIGCHLD);
}

TEST_CASE("parse_signal_name accepts decimal numbers from 1 to 64", "[signal]") {
  CHECK(runwarden::parse_signal_name("1") == 1);
  CHECK(runwarden::parse_signal_name("3") == 3);
  CHECK(runwarden::parse_signal_name("15") == 15);
  CHECK(runwarden::parse_signal_name("40") == 40);
  CHECK(runwarden::parse_signal_name("64") == 64);
}

TEST_CASE("parse_signal_name rejects everything else", "[signal]") {
  const auto text = GENERATE(as<std::string>{}, "", "SIG", "sig", "SIGFOO", "FOO", "0", "65", "-3",
                             "+3", " 3", "3 ", "3x", "0x3", "SIG3", "SIGQUIT ", " SIGQUIT",
                             "SIGSIGQUIT", "QUITSIG", "99999999999999999999");
  CAPTURE(text);
  CHECK_FALSE(runwarden::parse_signal_name(text).has_value());
}

TEST_CASE("signal_name prints the canonical name or the number", "[signal]") {
  CHECK(runwarden::signal_name(3) == "SIGQUIT");
  CHECK(runwarden::signal_name(SIGTERM) == "SIGTERM");
  CHECK(runwarden::signal_name(SIGKILL) == "SIGKILL");
  CHECK(runwarden::signal_name(SIGABRT) == "SIGABRT");
  CHECK(runwarden::signal_name(SIGCHLD) == "SIGCHLD");
  CHECK(runwarden::signal_name(0) == "signal 0");
  CHECK(runwarden::signal_name(40) == "signal 40");
  CHECK(runwarden::signal_name(-1) == "signal -1");
}

TEST_CASE("every named signal parses back to its number", "[signal]") {
  int named = 0;
  for (int number = 1; number <= 64; ++number) {
    const std::string name = runwarden::signal_name(number);
    CAPTURE(number, name);
    if (name.rfind("SIG", 0) != 0) {
      CHECK(name == "signal " + std::to_string(number));
      continue;
    }
    CHECK(runwarden::parse_signal_name(name) == number);
    ++named;
  }
  CHECK(named == 31);  // the standard signals; the real-time ones have no name
}

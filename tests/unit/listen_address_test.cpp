// Listen addresses are tested as text in, address or exact error out: each row is one
// spelling a user might write in --grpc-listen or the config, so the accepted forms and the
// words of each refusal are pinned. grpc_target and is_loopback are checked on parsed
// addresses, so they see exactly what the server will.

#include "src/config/listen_address.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

using runwarden::grpc_target;
using runwarden::is_loopback;
using runwarden::listen_address;
using runwarden::listen_address_result;
using runwarden::parse_listen_address;
using runwarden::tcp_address;
using runwarden::unix_socket_address;

struct good_address {
  std::string text;
  listen_address expected;
};

struct bad_address {
  std::string text;
  std::string error;
};

listen_address parsed(const std::string& text) {
  const listen_address_result result = parse_listen_address(text);
  INFO(text << ": " << result.error);
  REQUIRE(result.error.empty());
  return result.address;
}

// Sets an environment variable for one test, putting back what was there.
class scoped_environment {
 public:
  scoped_environment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value == nullptr) {
      ::unsetenv(name);
    } else {
      ::setenv(name, value, 1);
    }
  }
  ~scoped_environment() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  scoped_environment(const scoped_environment&) = delete;
  scoped_environment& operator=(const scoped_environment&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// sockaddr_un holds 107 bytes of path; "/" and 106 more fill it exactly.
const std::string longest_path = "/" + std::string(106, 's');

const std::vector<good_address> good_addresses{
    {"unix:///run/runwarden/control.sock", unix_socket_address{"/run/runwarden/control.sock"}},
    {"unix://" + longest_path, unix_socket_address{longest_path}},
    {"tcp://127.0.0.1:7701", tcp_address{"127.0.0.1", 7701}},
    {"tcp://localhost:0", tcp_address{"localhost", 0}},
    {"tcp://runner-7.ci_fleet.internal:65535", tcp_address{"runner-7.ci_fleet.internal", 65535}},
    {"tcp://[::1]:7701", tcp_address{"::1", 7701}},
    {"tcp://[::]:80", tcp_address{"::", 80}},
    {"tcp://[fe80::1%eth0]:7701", tcp_address{"fe80::1%eth0", 7701}},
    {"tcp://10.0.0.1:007", tcp_address{"10.0.0.1", 7}},
};

const std::vector<bad_address> bad_addresses{
    {"unix://run/runwarden/control.sock",
     "a unix socket needs an absolute path: unix:///run/runwarden/control.sock"},
    {"unix://", "a unix socket needs an absolute path: unix:///run/runwarden/control.sock"},
    {"unix://" + longest_path + "s", "unix socket path longer than 107 bytes"},
    {"unix:///run/runwarden/", "a unix socket path names a file, not a directory"},
    {"tcp://127.0.0.1", "missing port: tcp://HOST:PORT"},
    {"tcp://:7701", "missing host: tcp://HOST:PORT"},
    {"tcp://[]:7701", "missing host: tcp://HOST:PORT"},
    {"tcp://127.0.0.1:", "port \"\" is not a number from 0 to 65535"},
    {"tcp://127.0.0.1:http", "port \"http\" is not a number from 0 to 65535"},
    {"tcp://127.0.0.1:65536", "port \"65536\" is not a number from 0 to 65535"},
    {"tcp://127.0.0.1:99999999999", "port \"99999999999\" is not a number from 0 to 65535"},
    {"tcp://127.0.0.1:-1", "port \"-1\" is not a number from 0 to 65535"},
    {"tcp://127.0.0.1:+80", "port \"+80\" is not a number from 0 to 65535"},
    {"tcp://127.0.0.1:80/", "port \"80/\" is not a number from 0 to 65535"},
    {"tcp://::1:7701", "an IPv6 address is written in brackets: tcp://[::1]:7701"},
    {"tcp://[::1]", "an IPv6 address is written tcp://[::1]:7701"},
    {"tcp://[::1]7701", "an IPv6 address is written tcp://[::1]:7701"},
    {"tcp://[::1:7701", "an IPv6 address is written tcp://[::1]:7701"},
    {"tcp://[runner.internal]:7701", "host \"runner.internal\" is not a name or an IP address"},
    {"tcp://[127.0.0.1]:7701", "host \"127.0.0.1\" is not a name or an IP address"},
    {"tcp://my host:7701", "host \"my host\" is not a name or an IP address"},
    {"tcp://user@host:7701", "host \"user@host\" is not a name or an IP address"},
    {"tcp://host/path:7701", "host \"host/path\" is not a name or an IP address"},
    {"/run/runwarden/control.sock",
     "\"/run/runwarden/control.sock\" is neither unix:///PATH nor tcp://HOST:PORT"},
    {"unix:/run/runwarden/control.sock",
     "\"unix:/run/runwarden/control.sock\" is neither unix:///PATH nor tcp://HOST:PORT"},
    {"TCP://127.0.0.1:7701",
     "\"TCP://127.0.0.1:7701\" is neither unix:///PATH nor tcp://HOST:PORT"},
    {"127.0.0.1:7701", "\"127.0.0.1:7701\" is neither unix:///PATH nor tcp://HOST:PORT"},
    {"", "\"\" is neither unix:///PATH nor tcp://HOST:PORT"},
};

}  // namespace

TEST_CASE("listen addresses parse into unix paths and tcp hosts and ports", "[listen]") {
  const auto row = GENERATE(from_range(good_addresses));
  CAPTURE(row.text);
  const listen_address_result result = parse_listen_address(row.text);
  CHECK(result.error.empty());
  CHECK(result.address == row.expected);
}

TEST_CASE("bad listen addresses are refused with the reason", "[listen]") {
  const auto row = GENERATE(from_range(bad_addresses));
  CAPTURE(row.text);
  CHECK(parse_listen_address(row.text).error == row.error);
}

TEST_CASE("grpc_target writes gRPC's own target syntax", "[listen]") {
  CHECK(grpc_target(parsed("unix:///run/runwarden/control.sock")) ==
        "unix:/run/runwarden/control.sock");
  CHECK(grpc_target(parsed("tcp://127.0.0.1:7701")) == "127.0.0.1:7701");
  CHECK(grpc_target(parsed("tcp://localhost:0")) == "localhost:0");
  CHECK(grpc_target(parsed("tcp://[::1]:7701")) == "[::1]:7701");
  CHECK(grpc_target(parsed("tcp://[2001:db8::5]:443")) == "[2001:db8::5]:443");
}

TEST_CASE("is_loopback holds for unix sockets and loopback hosts only", "[listen]") {
  const auto [text, loopback] = GENERATE(table<std::string, bool>({
      {"unix:///run/runwarden/control.sock", true},
      {"tcp://127.0.0.1:7701", true},
      {"tcp://127.255.3.4:7701", true},
      {"tcp://[::1]:7701", true},
      {"tcp://localhost:7701", true},
      {"tcp://0.0.0.0:7701", false},  // every interface, not only loopback
      {"tcp://[::]:7701", false},
      {"tcp://10.0.0.1:7701", false},
      {"tcp://128.0.0.1:7701", false},
      {"tcp://126.255.255.255:7701", false},
      {"tcp://[::2]:7701", false},
      // A name other than localhost may resolve anywhere, even one that looks local.
      {"tcp://runner.internal:7701", false},
      {"tcp://localhost.example.com:7701", false},
      {"tcp://127.0.0.1.nip.io:7701", false},
  }));
  CAPTURE(text);
  CHECK(is_loopback(parsed(text)) == loopback);
}

TEST_CASE("the default control socket is a valid unix address for the user", "[listen]") {
  if (::geteuid() == 0) {
    CHECK(runwarden::default_control_socket() == "/run/runwarden/control.sock");
    return;
  }
  {
    const scoped_environment runtime{"XDG_RUNTIME_DIR", "/run/user/1000"};
    CHECK(runwarden::default_control_socket() == "/run/user/1000/runwarden/control.sock");
  }
  const std::string fallback = "/tmp/runwarden-" + std::to_string(::geteuid()) + "/control.sock";
  {
    const scoped_environment runtime{"XDG_RUNTIME_DIR", "relative/dir"};
    CHECK(runwarden::default_control_socket() == fallback);
  }
  const scoped_environment runtime{"XDG_RUNTIME_DIR", nullptr};
  CHECK(runwarden::default_control_socket() == fallback);
  CHECK(parse_listen_address("unix://" + fallback).error.empty());
}

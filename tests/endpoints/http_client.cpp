// See http_client.hpp. Proxies are switched off: the endpoints are on loopback and a proxy
// from the environment would only get in the way.
#include "tests/endpoints/http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace runwarden::testing {

namespace {

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* target) {
  static_cast<std::string*>(target)->append(data, size * count);
  return size * count;
}

// Keeps the value of the headers the tests look at; names compare without case.
std::size_t note_header(char* data, std::size_t size, std::size_t count, void* target) {
  auto& reply = *static_cast<http_reply*>(target);
  std::string line(data, size * count);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  const auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto value = line.substr(line.find_first_not_of(' ', colon + 1));
    if (name == "allow") reply.allow = value;
    if (name == "content-length") reply.content_length = value;
  }
  return size * count;
}

}  // namespace

http_client::http_client() : handle_(curl_easy_init()) {}

http_client::~http_client() { curl_easy_cleanup(handle_); }

http_reply http_client::fetch(const std::string& url, const std::string& method,
                              std::chrono::milliseconds timeout) {
  http_reply reply;
  curl_easy_setopt(handle_, CURLOPT_URL, url.c_str());
  curl_easy_setopt(handle_, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(handle_, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle_, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(handle_, CURLOPT_NOBODY, method == "HEAD" ? 1L : 0L);
  curl_easy_setopt(handle_, CURLOPT_CUSTOMREQUEST,
                   method == "GET" || method == "HEAD" ? nullptr : method.c_str());
  curl_easy_setopt(handle_, CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(handle_, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(handle_, CURLOPT_HEADERFUNCTION, note_header);
  curl_easy_setopt(handle_, CURLOPT_HEADERDATA, &reply);
  const auto result = curl_easy_perform(handle_);
  if (result != CURLE_OK) {
    reply.error = curl_easy_strerror(result);
    return reply;
  }
  curl_easy_getinfo(handle_, CURLINFO_RESPONSE_CODE, &reply.status);
  const char* content_type = nullptr;
  curl_easy_getinfo(handle_, CURLINFO_CONTENT_TYPE, &content_type);
  if (content_type != nullptr) reply.content_type = content_type;
  curl_easy_getinfo(handle_, CURLINFO_NUM_CONNECTS, &reply.new_connections);
  return reply;
}

int connect_loopback(std::uint16_t port) {
  const int socket = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (socket < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(socket, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(socket);
    return -1;
  }
  return socket;
}

raw_exchange exchange_raw(int socket, const std::string& request,
                          std::chrono::milliseconds timeout) {
  raw_exchange result;
  if (!request.empty() && ::send(socket, request.data(), request.size(), MSG_NOSIGNAL) !=
                              static_cast<ssize_t>(request.size()))
    return result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::array<char, 4096> buffer{};
  while (std::chrono::steady_clock::now() < deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd waiting{socket, POLLIN, 0};
    if (::poll(&waiting, 1, static_cast<int>(left.count()) + 1) <= 0) continue;
    const auto got = ::recv(socket, buffer.data(), buffer.size(), 0);
    if (got <= 0) {
      result.closed_by_server = true;
      return result;
    }
    result.received.append(buffer.data(), static_cast<std::size_t>(got));
  }
  return result;
}

promtool_verdict check_with_promtool(const std::string& exposition) {
  std::string path = "/tmp/runwarden-metrics-XXXXXX";
  const int file = ::mkstemp(path.data());
  if (file < 0) return {};
  ::close(file);
  std::ofstream{path} << exposition;
  const std::string command = std::string{PROMTOOL_BINARY} + " check metrics < " + path + " 2>&1";
  promtool_verdict verdict;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    std::array<char, 512> buffer{};
    while (const auto got = std::fread(buffer.data(), 1, buffer.size(), pipe))
      verdict.output.append(buffer.data(), got);
    const int status = ::pclose(pipe);
    verdict.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::remove(path.c_str());
  return verdict;
}

}  // namespace runwarden::testing

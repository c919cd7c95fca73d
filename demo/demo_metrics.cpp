// See demo_metrics.hpp.
#include "demo/demo_metrics.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <chrono>

namespace demo {

namespace http = boost::beast::http;
using boost::asio::ip::tcp;

namespace {

constexpr std::chrono::seconds receive_timeout{1};

}  // namespace

std::string metrics_page(const runner_figures& figures) {
  const char* state = figures.draining ? "graceful-shutdown" : "running";
  return "# HELP gitlab_runner_jobs The current number of running builds.\n"
         "# TYPE gitlab_runner_jobs gauge\n"
         "gitlab_runner_jobs{executor_stage=\"step_script\",runner=\"demo0000\","
         "stage=\"step_script\",state=\"running\"} " +
         std::to_string(figures.jobs_running) +
         "\n# HELP gitlab_runner_concurrent The current value of concurrent setting\n"
         "# TYPE gitlab_runner_concurrent gauge\n"
         "gitlab_runner_concurrent " +
         std::to_string(figures.concurrency) +
         "\n# HELP gitlab_runner_process_state_info The current state of the runner process\n"
         "# TYPE gitlab_runner_process_state_info gauge\n"
         "gitlab_runner_process_state_info{state=\"" +
         state + "\"} 1\n";
}

metrics_endpoint::metrics_endpoint(tcp::endpoint endpoint) : acceptor_(io_, endpoint) {}

std::unique_ptr<metrics_endpoint> metrics_endpoint::open(const std::string& address,
                                                         std::string& error) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) {
    error = "--listen-address wants HOST:PORT, got \"" + address + "\"";
    return nullptr;
  }
  boost::system::error_code failed;
  auto host = address.substr(0, colon);
  if (host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const auto ip = boost::asio::ip::make_address(host, failed);
  if (failed) {
    error = "--listen-address: \"" + host + "\" is not an IP address";
    return nullptr;
  }
  unsigned long port = 0;
  try {
    port = std::stoul(address.substr(colon + 1));
  } catch (const std::exception&) {
    port = 65536;
  }
  if (port > 65535) {
    error = "--listen-address: bad port in \"" + address + "\"";
    return nullptr;
  }
  try {
    return std::unique_ptr<metrics_endpoint>{
        new metrics_endpoint{tcp::endpoint{ip, static_cast<unsigned short>(port)}}};
  } catch (const boost::system::system_error& e) {
    error = "--listen-address " + address + ": " + e.code().message();
    return nullptr;
  }
}

int metrics_endpoint::fd() { return acceptor_.native_handle(); }

void metrics_endpoint::answer_one(const runner_figures& figures) {
  boost::system::error_code failed;
  tcp::socket socket{io_};
  acceptor_.accept(socket, failed);
  if (failed) return;
  boost::beast::flat_buffer buffer;
  http::request<http::empty_body> request;
  bool read = false;
  http::async_read(socket, buffer, request, [&](boost::system::error_code code, std::size_t) {
    failed = code;
    read = true;
  });
  io_.restart();
  io_.run_for(receive_timeout);
  if (!read) {
    socket.close(failed);  // cancels the read; its handler runs below, then the socket goes
    io_.restart();
    io_.run();
    return;
  }
  if (failed) return;
  http::response<http::string_body> response;
  response.version(request.version());
  response.keep_alive(false);
  if (request.target() == "/metrics") {
    response.result(http::status::ok);
    response.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
    response.body() = metrics_page(figures);
  } else {
    response.result(http::status::not_found);
    response.body() = "404 page not found\n";
  }
  response.prepare_payload();
  http::write(socket, response, failed);
  socket.shutdown(tcp::socket::shutdown_both, failed);
}

}  // namespace demo

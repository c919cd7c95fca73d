#pragma once
// Plain-HTTP requests (http://, never through a proxy) carried out with Boost.Beast on the
// io thread, one at a time, on one kept-alive connection: the cloud's metadata service and
// the runner's /metrics page are asked every few seconds, and a poll on an open connection
// costs one write and one read, no thread, no handshake. Everything is asynchronous, so a
// session never blocks the io thread; the request's timeout covers the whole transfer, name
// lookup and connection included. The transfer is locked down as the libcurl one is: no
// redirects followed, names pinned to checked addresses, bodies capped. A name that is
// neither numeric nor pinned is looked up with Boost.Asio's resolver, which runs getaddrinfo
// on a thread of asio's own, started with the first such lookup (IMDS is numeric, so the
// metadata poll never needs one).
//
// Only the io thread may call it (plain_http_client posts there).

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <string>

#include "src/util/http_exchange.hpp"

namespace runwarden {

class plain_http_session : public std::enable_shared_from_this<plain_http_session> {
 public:
  using answer_handler = std::function<void(http_response)>;

  explicit plain_http_session(boost::asio::io_context& context);
  plain_http_session(const plain_http_session&) = delete;
  plain_http_session& operator=(const plain_http_session&) = delete;

  // Starts the request; `done` gets its one answer later, on the io thread (never from inside
  // perform). One request at a time: call again only once `done` ran.
  void perform(http_request request, answer_handler done);

  // Ends the request in progress, answering it at once (from inside this call) with `why` as
  // its transport error, and closes the connection.
  void abandon(const std::string& why);

 private:
  struct connection;
  struct exchange;
  using connection_ptr = std::shared_ptr<connection>;
  using exchange_ptr = std::shared_ptr<exchange>;

  void open_connection(const exchange_ptr& current);
  void connect(const exchange_ptr& current,
               const std::vector<boost::asio::ip::tcp::endpoint>& endpoints);
  void send(const exchange_ptr& current);
  void receive(const exchange_ptr& current);
  void read_failed(const exchange_ptr& current, const boost::system::error_code& error);
  void take_answer(const exchange_ptr& current);
  bool may_retry(const exchange_ptr& current, const boost::system::error_code& error) const;
  void retry(const exchange_ptr& current);
  // An answer is posted, so that `done` never runs inside perform, unless it must go now.
  enum class answer_when { posted, now };
  void fail(const exchange_ptr& current, std::string error, answer_when when = answer_when::posted);
  void finish(const exchange_ptr& current, http_response response,
              answer_when when = answer_when::posted);
  void forget_connection();

  boost::asio::io_context& context_;
  boost::asio::ip::tcp::resolver resolver_;
  boost::asio::steady_timer deadline_;
  connection_ptr kept_;   // the kept-alive connection, when one is open
  exchange_ptr current_;  // the request in progress, if any
};

}  // namespace runwarden

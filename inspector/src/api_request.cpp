#include "api_request.hpp"

#include "control_line.hpp"

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <memory>
#include <nlohmann/json.hpp>

namespace scripthost::inspector {

namespace asio = boost::asio;

namespace {

class ApiCall : public std::enable_shared_from_this<ApiCall> {
public:
    ApiCall(const asio::any_io_executor& executor, std::string body, ApiDone done)
        : socket_(executor), timer_(executor), body_(std::move(body)), done_(std::move(done)) {}

    void start(const ServerContext& context, std::chrono::milliseconds timeout) {
        line_ = toControlLine(body_);
        timer_.expires_after(timeout);
        timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
            if (!ec)
                self->finish(504, R"({"ok":false,"error":{"code":"timeout","message":)"
                                  R"("the host did not answer in time"}})");
        });
        socket_.async_connect(
            asio::local::stream_protocol::endpoint(context.controlSocket.string()),
            [self = shared_from_this()](boost::system::error_code ec) {
                if (ec) {
                    self->finish(503, hostUnavailableReply(requestIdOf(self->body_)));
                    return;
                }
                asio::async_write(self->socket_, asio::buffer(self->line_),
                                  [self](boost::system::error_code written, std::size_t) {
                                      if (written) {
                                          self->finish(
                                              503, hostUnavailableReply(requestIdOf(self->body_)));
                                          return;
                                      }
                                      self->readReply();
                                  });
            });
    }

private:
    // The first line that is not an event is the reply (a `subscribe` is answered first).
    void readReply() {
        asio::async_read_until(
            socket_, asio::dynamic_buffer(received_, kMaxHostLineBytes), '\n',
            [self = shared_from_this()](boost::system::error_code ec, std::size_t length) {
                if (ec) {
                    self->finish(503, hostUnavailableReply(requestIdOf(self->body_)));
                    return;
                }
                std::string line = self->received_.substr(0, length - 1);
                self->received_.erase(0, length);
                const auto parsed = nlohmann::json::parse(line, nullptr, false);
                if (parsed.is_object() && parsed.contains("event")) {
                    self->readReply();
                    return;
                }
                self->finish(200, std::move(line));
            });
    }

    void finish(unsigned status, std::string body) {
        if (!done_)
            return;
        auto done = std::move(done_);
        done_ = nullptr;
        boost::system::error_code ignored;
        timer_.cancel();
        socket_.close(ignored);
        done(status, std::move(body));
    }

    asio::local::stream_protocol::socket socket_;
    asio::steady_timer timer_;
    std::string body_;
    std::string line_;
    std::string received_;
    ApiDone done_;
};

} // namespace

void startApiRequest(const asio::any_io_executor& executor, const ServerContext& context,
                     std::string body, std::chrono::milliseconds timeout, ApiDone done) {
    std::make_shared<ApiCall>(executor, std::move(body), std::move(done))->start(context, timeout);
}

} // namespace scripthost::inspector

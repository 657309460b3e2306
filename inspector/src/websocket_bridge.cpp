#include "websocket_bridge.hpp"

#include "control_line.hpp"

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <functional>
#include <spdlog/spdlog.h>
#include <string>

namespace scripthost::inspector {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using Request = beast::http::request<beast::http::string_body>;

namespace {

class Bridge : public std::enable_shared_from_this<Bridge> {
public:
    Bridge(asio::ip::tcp::socket socket, ServerContext& context, SessionSlot slot)
        : ws_(std::move(socket)), host_(ws_.get_executor()), retry_(ws_.get_executor()),
          context_(context), slot_(std::move(slot)) {}

    void start(Request request) {
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.read_message_max(context_.maxMessageBytes);
        ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) {
            if (ec)
                return;
            self->connectHost();
            self->readBrowser();
        });
    }

private:
    // --- browser → host ------------------------------------------------------------------
    void readBrowser() {
        ws_.async_read(fromBrowser_, [self = shared_from_this()](beast::error_code ec,
                                                                 std::size_t) {
            if (ec) {
                // message_too_big: Beast has already closed with 1009 ("message too big").
                if (ec == websocket::error::message_too_big)
                    spdlog::warn("inspector: a WebSocket message over {} bytes; connection closed",
                                 self->context_.maxMessageBytes);
                // The WebSocket has failed or closed and Beast tears it down; only the
                // host's side is left to close.
                self->close(/*socketToo=*/false);
                return;
            }
            std::string message = beast::buffers_to_string(self->fromBrowser_.data());
            self->fromBrowser_.consume(self->fromBrowser_.size());
            self->forward(std::move(message));
        });
    }

    void forward(std::string message) {
        if (!hostConnected_) {
            sendToBrowser(hostUnavailableReply(requestIdOf(message)), [this] { readBrowser(); });
            return;
        }
        auto line = std::make_shared<std::string>(toControlLine(message));
        asio::async_write(
            host_, asio::buffer(*line),
            [self = shared_from_this(), line, message = std::move(message),
             generation = hostGeneration_](beast::error_code ec, std::size_t) mutable {
                if (self->closed_)
                    return;
                if (ec) {
                    // The host went away with this request unsent.
                    self->hostLost(generation, ec.message());
                    self->sendToBrowser(hostUnavailableReply(requestIdOf(message)),
                                        [s = self.get()] { s->readBrowser(); });
                    return;
                }
                self->readBrowser();
            });
    }

    // --- host → browser ------------------------------------------------------------------
    void connectHost() {
        if (closed_)
            return;
        host_ = asio::local::stream_protocol::socket(ws_.get_executor());
        host_.async_connect(asio::local::stream_protocol::endpoint(context_.controlSocket.string()),
                            [self = shared_from_this()](beast::error_code ec) {
                                if (self->closed_)
                                    return;
                                if (ec) {
                                    if (self->announcedConnected_ || !self->announcedOnce_)
                                        self->announce(false,
                                                       "cannot reach the host's control socket " +
                                                           self->context_.controlSocket.string() +
                                                           ": " + ec.message());
                                    self->scheduleReconnect();
                                    return;
                                }
                                self->hostConnected_ = true;
                                ++self->hostGeneration_;
                                self->announce(true, "");
                                self->readHost();
                            });
    }

    void readHost() {
        asio::async_read_until(
            host_, asio::dynamic_buffer(fromHost_, kMaxHostLineBytes), '\n',
            [self = shared_from_this(), generation = hostGeneration_](beast::error_code ec,
                                                                      std::size_t length) {
                if (self->closed_)
                    return;
                if (ec) {
                    self->hostLost(generation, ec == asio::error::eof
                                                   ? "the host closed the connection"
                                                   : ec.message());
                    return;
                }
                std::string line = self->fromHost_.substr(0, length - 1);
                self->fromHost_.erase(0, length);
                if (!line.empty() && line.back() == '\r')
                    line.pop_back();
                self->sendToBrowser(std::move(line), [s = self.get(), generation] {
                    if (s->hostConnected_ && generation == s->hostGeneration_)
                        s->readHost();
                });
            });
    }

    // `generation`: the connection the failed operation was on; a late failure of an earlier
    // connection says nothing about the current one.
    void hostLost(unsigned generation, const std::string& why) {
        if (!hostConnected_ || generation != hostGeneration_)
            return;
        hostConnected_ = false;
        fromHost_.clear();
        beast::error_code ignored;
        host_.close(ignored);
        announce(false, why);
        scheduleReconnect();
    }

    void scheduleReconnect() {
        retry_.expires_after(context_.reconnectInterval);
        retry_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec)
                self->connectHost();
        });
    }

    void announce(bool connected, const std::string& message) {
        announcedOnce_ = true;
        announcedConnected_ = connected;
        sendToBrowser(hostEvent(connected, message), {});
    }

    // --- writing to the browser ----------------------------------------------------------
    // Messages go out one at a time; `then` runs once its message is written (it resumes the
    // read that produced it, which keeps this queue to a few messages).
    void sendToBrowser(std::string message, std::function<void()> then) {
        if (closed_)
            return;
        toBrowser_.push_back({std::move(message), std::move(then)});
        if (toBrowser_.size() == 1)
            writeNext();
    }

    void writeNext() {
        ws_.text(true);
        ws_.async_write(asio::buffer(toBrowser_.front().text),
                        [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            if (self->closed_)
                                return;
                            if (ec) {
                                self->close();
                                return;
                            }
                            auto then = std::move(self->toBrowser_.front().then);
                            self->toBrowser_.pop_front();
                            if (!self->toBrowser_.empty())
                                self->writeNext();
                            if (then && !self->closed_)
                                then();
                        });
    }

    void close(bool socketToo = true) {
        if (closed_)
            return;
        closed_ = true;
        hostConnected_ = false;
        beast::error_code ignored;
        retry_.cancel();
        host_.close(ignored);
        if (socketToo)
            beast::get_lowest_layer(ws_).close();
    }

    struct Outgoing {
        std::string text;
        std::function<void()> then;
    };

    websocket::stream<beast::tcp_stream> ws_;
    asio::local::stream_protocol::socket host_;
    asio::steady_timer retry_;
    ServerContext& context_;
    SessionSlot slot_;
    beast::flat_buffer fromBrowser_;
    std::string fromHost_;
    std::deque<Outgoing> toBrowser_;
    bool hostConnected_ = false;
    unsigned hostGeneration_ = 0; ///< counts connections to the host
    bool announcedOnce_ = false;
    bool announcedConnected_ = false;
    bool closed_ = false;
};

} // namespace

void startWebSocketBridge(asio::ip::tcp::socket socket, Request request, ServerContext& context,
                          SessionSlot slot) {
    std::make_shared<Bridge>(std::move(socket), context, std::move(slot))
        ->start(std::move(request));
}

} // namespace scripthost::inspector

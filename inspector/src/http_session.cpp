#include "http_session.hpp"

#include "api_request.hpp"
#include "websocket_bridge.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <optional>
#include <spdlog/spdlog.h>
#include <sstream>

namespace scripthost::inspector {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

namespace {

constexpr std::size_t kMaxHeaderBytes = 16 * 1024;
constexpr auto kReadTimeout = std::chrono::seconds(30);
constexpr auto kApiTimeout = std::chrono::seconds(10);

std::string_view headerOf(const Request& request, http::field field) {
    const auto found = request.find(field);
    if (found == request.end())
        return {};
    return {found->value().data(), found->value().size()};
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(asio::ip::tcp::socket socket, ServerContext& context)
        : stream_(std::move(socket)), context_(context), slot_(context) {}

    void read() {
        parser_.emplace();
        parser_->header_limit(kMaxHeaderBytes);
        parser_->body_limit(context_.maxMessageBytes);
        stream_.expires_after(kReadTimeout);
        http::async_read(
            stream_, buffer_, *parser_,
            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->onRead(ec); });
    }

private:
    void onRead(beast::error_code ec) {
        if (ec == http::error::body_limit) {
            sendStatus(
                http::status::payload_too_large,
                fmt::format("a request body may be at most {} bytes", context_.maxMessageBytes), 11,
                /*close=*/true);
            return;
        }
        if (ec == http::error::header_limit) {
            sendStatus(http::status::request_header_fields_too_large,
                       "the request's headers are too large", 11, true);
            return;
        }
        if (ec) {
            beast::error_code ignored;
            stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
            return;
        }
        handle(parser_->release());
    }

    void handle(Request request) {
        const RequestCredentials credentials{
            .target = {request.target().data(), request.target().size()},
            .host = headerOf(request, http::field::host),
            .origin = headerOf(request, http::field::origin),
            .cookie = headerOf(request, http::field::cookie),
            .authorization = headerOf(request, http::field::authorization),
            .hasOrigin = request.find(http::field::origin) != request.end()};
        const AccessDecision decision = context_.policy.decide(credentials);
        const unsigned version = request.version();
        if (!decision.allowed) {
            spdlog::warn("inspector: refused {} {}: {}", std::string(request.method_string()),
                         decision.path, decision.refusal);
            sendStatus(http::status::forbidden, decision.refusal, version, true);
            return;
        }
        if (beast::websocket::is_upgrade(request)) {
            if (decision.path != "/ws") {
                sendStatus(http::status::not_found, "WebSockets are served on /ws", version, true);
                return;
            }
            stream_.expires_never();
            startWebSocketBridge(stream_.release_socket(), std::move(request), context_,
                                 std::move(slot_));
            return;
        }
        if (decision.path == "/api") {
            if (request.method() != http::verb::post) {
                sendStatus(http::status::method_not_allowed, "POST a control request to /api",
                           version, false);
                return;
            }
            startApiRequest(
                stream_.get_executor(), context_, std::move(request.body()), kApiTimeout,
                [self = shared_from_this(), version](unsigned status, std::string body) {
                    self->send(self->response(static_cast<http::status>(status), std::move(body),
                                              "application/json", version));
                });
            return;
        }
        if (request.method() != http::verb::get && request.method() != http::verb::head) {
            sendStatus(http::status::method_not_allowed, "the page is read with GET", version,
                       false);
            return;
        }
        if (decision.tokenInQuery) {
            // The token moves from the URL into a cookie, and out of the address bar.
            Response redirect = response(http::status::see_other, "", "text/plain", version);
            redirect.set(http::field::location, decision.path);
            redirect.set(http::field::set_cookie, context_.policy.sessionCookie());
            send(std::move(redirect));
            return;
        }
        const auto file = context_.page.find(decision.path);
        if (!file) {
            sendStatus(http::status::not_found, "no such page file", version, false);
            return;
        }
        std::ifstream in(file->file, std::ios::binary);
        std::ostringstream content;
        content << in.rdbuf();
        Response ok =
            response(http::status::ok, std::move(content).str(), file->contentType, version);
        if (request.method() == http::verb::head)
            ok.body().clear();
        send(std::move(ok));
    }

    Response response(http::status status, std::string body, const std::string& type,
                      unsigned version) const {
        Response res{status, version};
        res.set(http::field::server, "scripthost-inspector");
        res.set(http::field::content_type, type);
        res.set(http::field::cache_control, "no-store");
        res.set("X-Content-Type-Options", "nosniff");
        res.set("X-Frame-Options", "DENY");
        res.set("Referrer-Policy", "no-referrer");
        res.set("Content-Security-Policy", context_.contentSecurityPolicy);
        res.body() = std::move(body);
        res.prepare_payload();
        return res;
    }

    void sendStatus(http::status status, std::string message, unsigned version, bool close) {
        Response res =
            response(status, std::move(message) + "\n", "text/plain; charset=utf-8", version);
        res.keep_alive(!close);
        send(std::move(res));
    }

    void send(Response res) {
        auto owned = std::make_shared<Response>(std::move(res));
        http::async_write(
            stream_, *owned, [self = shared_from_this(), owned](beast::error_code ec, std::size_t) {
                if (ec)
                    return;
                if (owned->need_eof()) {
                    beast::error_code ignored;
                    self->stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
                    return;
                }
                self->read();
            });
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    ServerContext& context_;
    SessionSlot slot_;
};

} // namespace

void startHttpSession(asio::ip::tcp::socket socket, ServerContext& context) {
    std::make_shared<HttpSession>(std::move(socket), context)->read();
}

} // namespace scripthost::inspector

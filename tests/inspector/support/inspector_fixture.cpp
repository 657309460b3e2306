#include "inspector_fixture.hpp"

#include <boost/asio/connect.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <inspector/access_token.hpp>
#include <inspector/loopback_listener.hpp>

namespace scripthost::inspector::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

void answerLikeADaemon(control::ControlServer& server, const control::Request& request) {
    if (request.cmd == "subscribe") {
        std::vector<std::string> topics = request.body.value("topics", std::vector<std::string>{});
        server.subscribe(request.client, topics);
        server.replyOk(request.client, request.id, {{"topics", topics}});
    } else if (request.cmd == "publish") {
        server.replyOk(request.client, request.id, nlohmann::json::object());
        server.publish(request.body.value("topic", std::string()),
                       request.body.value("data", nlohmann::json()));
    } else {
        server.replyOk(request.client, request.id,
                       {{"cmd", request.cmd}, {"request", request.body}});
    }
}

InspectorFixture::InspectorFixture(InspectorOptions extra) {
    controlPath_ = dir / "control.sock";
    scripthost::testing::writeFile(dir / "page" / "index.html",
                                   "<!doctype html><title>inspector page marker</title>");
    scripthost::testing::writeFile(dir / "page" / "app.js", "export const marker = 1;\n");
    scripthost::testing::writeFile(dir / "secret.html", "not a page file");
    startHost();
    auto listener = LoopbackListener::bind(0);
    REQUIRE_MESSAGE(listener.has_value(), (listener ? "" : listener.error().message));
    port_ = listener->port();
    auto token = makeAccessToken();
    REQUIRE(token.has_value());
    token_ = *token;
    extra.listener = listener->release();
    extra.port = port_;
    extra.token = token_;
    extra.controlSocket = controlPath_;
    extra.pageFolder = dir / "page";
    if (extra.reconnectInterval == 250ms)
        extra.reconnectInterval = 50ms;
    auto server = InspectorServer::open(std::move(extra));
    REQUIRE_MESSAGE(server.has_value(), (server ? "" : server.error().message));
    server_ = std::move(*server);
    thread_ = std::thread([this] { server_->run(); });
}

InspectorFixture::~InspectorFixture() {
    server_->stop();
    thread_.join();
    stopHost();
}

void InspectorFixture::stopHost() {
    responder_.reset();
    control_.reset();
}

void InspectorFixture::startHost() {
    control_ = control::test::openServer(controlPath_);
    responder_ = std::make_unique<control::test::AutoResponder>(*control_, answerLikeADaemon);
}

HttpReply InspectorFixture::request(const std::string& method, const std::string& target,
                                    Headers headers, const std::string& body) const {
    asio::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(10s);
    stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, host());
    for (const auto& [name, value] : headers)
        req.set(name, value);
    req.body() = body;
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    parser.skip(method == "HEAD");
    http::read(stream, buffer, parser);
    const auto& res = parser.get();
    HttpReply reply;
    reply.status = res.result_int();
    for (const auto& field : res) {
        std::string name(field.name_string());
        for (char& c : name)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        reply.headers[name] = std::string(field.value());
    }
    reply.body = res.body();
    beast::error_code ignored;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    return reply;
}

WsClient::WsClient(const InspectorFixture& fixture, const Headers& headers) : ws_(io_) {
    beast::get_lowest_layer(ws_).expires_after(10s);
    beast::get_lowest_layer(ws_).connect(
        asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), fixture.port()));
    ws_.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
        for (const auto& [name, value] : headers)
            req.set(name, value);
    }));
    websocket::response_type response;
    beast::error_code ec;
    ws_.handshake(response, fixture.host(), "/ws", ec);
    status_ = response.result_int();
    upgraded_ = !ec && status_ == 101;
    beast::get_lowest_layer(ws_).expires_never();
}

void WsClient::send(const std::string& text) {
    beast::get_lowest_layer(ws_).expires_after(10s);
    ws_.text(true);
    ws_.write(asio::buffer(text));
    beast::get_lowest_layer(ws_).expires_never();
}

std::optional<nlohmann::json> WsClient::next(std::chrono::milliseconds timeout) {
    beast::get_lowest_layer(ws_).expires_after(timeout);
    beast::flat_buffer buffer;
    beast::error_code ec;
    ws_.read(buffer, ec);
    beast::get_lowest_layer(ws_).expires_never();
    if (ec) {
        // The server's close frame, even when answering it failed (the server had gone).
        closedWith_ = ws_.reason().code;
        lastError_ = ec.message();
        return std::nullopt;
    }
    return nlohmann::json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
}

std::optional<nlohmann::json> WsClient::reply(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        auto message = next(std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now()));
        if (!message)
            return std::nullopt;
        if (!message->contains("event"))
            return message;
    }
    return std::nullopt;
}

bool WsClient::waitForHost(const std::string& state, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        auto message = next(std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now()));
        if (!message)
            return false;
        if (message->value("event", "") == "inspector" &&
            (*message)["data"].value("host", "") == state)
            return true;
    }
    return false;
}

} // namespace scripthost::inspector::test

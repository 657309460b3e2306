#include "inspector/inspector_server.hpp"

#include "http_session.hpp"
#include "server_context.hpp"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost::inspector {

namespace asio = boost::asio;

std::filesystem::path pageFolderBesideExecutable() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        return "inspector";
    return self.parent_path() / "inspector";
}

std::string inspectorUrl(std::uint16_t port, const std::string& token) {
    return fmt::format("http://127.0.0.1:{}/?token={}", port, token);
}

struct InspectorServer::State {
    State(InspectorOptions& options)
        : context{.policy = AccessPolicy(options.port, options.token),
                  .page = PageFiles(options.pageFolder),
                  .controlSocket = options.controlSocket,
                  .maxMessageBytes = options.maxMessageBytes,
                  .maxSessions = options.maxSessions,
                  .reconnectInterval = options.reconnectInterval,
                  .contentSecurityPolicy = fmt::format(
                      "default-src 'self'; connect-src 'self' ws://127.0.0.1:{0} "
                      "ws://localhost:{0}; img-src 'self' data:; frame-ancestors 'none'",
                      options.port)},
          acceptor(io), port(options.port), token(options.token) {}

    asio::io_context io{1};
    ServerContext context;
    asio::ip::tcp::acceptor acceptor;
    std::uint16_t port;
    std::string token;

    void accept() {
        acceptor.async_accept([this](boost::system::error_code ec, asio::ip::tcp::socket socket) {
            if (ec == asio::error::operation_aborted || !acceptor.is_open())
                return;
            if (!ec) {
                if (context.sessions >= context.maxSessions) {
                    spdlog::warn("inspector: {} connections are open; one more was closed",
                                 context.sessions);
                } else {
                    startHttpSession(std::move(socket), context);
                }
            }
            accept();
        });
    }
};

Result<std::unique_ptr<InspectorServer>> InspectorServer::open(InspectorOptions options) {
    if (!options.listener)
        return fail("inspector: no listening socket");
    if (options.token.size() < 32)
        return fail("inspector: the token is too short");
    auto state = std::make_unique<State>(options);
    boost::system::error_code ec;
    state->acceptor.assign(asio::ip::tcp::v4(), options.listener.release(), ec);
    if (ec)
        return fail("inspector: cannot use the listening socket: " + ec.message());
    state->accept();
    return std::unique_ptr<InspectorServer>(new InspectorServer(std::move(state)));
}

InspectorServer::InspectorServer(std::unique_ptr<State> state) noexcept
    : state_(std::move(state)) {}

InspectorServer::~InspectorServer() {
    stop();
}

std::string InspectorServer::url() const {
    return inspectorUrl(state_->port, state_->token);
}

std::uint16_t InspectorServer::port() const noexcept {
    return state_->port;
}

void InspectorServer::run() {
    state_->io.run();
}

void InspectorServer::stop() {
    state_->io.stop();
}

} // namespace scripthost::inspector

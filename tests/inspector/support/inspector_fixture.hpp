#pragma once
// The inspector's integration fixture: a real control server in a temp folder (answered by
// a thread that plays the daemon), a real InspectorServer on a free loopback port on a thread
// of its own, and small blocking HTTP and WebSocket clients (Boost.Beast) with deadlines.

#include "../../host/control/support/control_test_support.hpp"

#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <inspector/inspector_server.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>

namespace scripthost::inspector::test {

using namespace std::chrono_literals;
using scripthost::testing::TempDir;
using scripthost::testing::waitUntil;

struct HttpReply {
    unsigned status = 0;
    std::map<std::string, std::string> headers; ///< lower-case names
    std::string body;
};

using Headers = std::map<std::string, std::string>;

/// The daemon's part, played by a thread: `echo` answers {"cmd":…,"request":<the request>},
/// `subscribe` subscribes, `publish` {"topic":…,"data":…} publishes to subscribers.
void answerLikeADaemon(control::ControlServer& server, const control::Request& request);

class InspectorFixture {
public:
    explicit InspectorFixture(InspectorOptions extra = {});
    ~InspectorFixture();
    InspectorFixture(const InspectorFixture&) = delete;
    InspectorFixture& operator=(const InspectorFixture&) = delete;

    [[nodiscard]] std::uint16_t port() const { return port_; }
    [[nodiscard]] const std::string& token() const { return token_; }
    [[nodiscard]] std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
    [[nodiscard]] std::string origin() const { return "http://" + host(); }
    [[nodiscard]] std::string cookie() const {
        return "scripthost-inspector-" + std::to_string(port_) + "=" + token_;
    }
    [[nodiscard]] const std::filesystem::path& controlPath() const { return controlPath_; }

    /// One request on a connection of its own. `headers` go as given; Host is the
    /// inspector's unless `headers` names one.
    [[nodiscard]] HttpReply request(const std::string& method, const std::string& target,
                                    Headers headers = {}, const std::string& body = {}) const;

    /// Stops the control server (the host "crashed") / opens a new one at the same path.
    void stopHost();
    void startHost();

    TempDir dir{"inspector"};

private:
    std::filesystem::path controlPath_;
    std::unique_ptr<control::ControlServer> control_;
    std::unique_ptr<control::test::AutoResponder> responder_;
    std::unique_ptr<InspectorServer> server_;
    std::thread thread_;
    std::uint16_t port_ = 0;
    std::string token_;
};

/// A WebSocket to the inspector's /ws, blocking with deadlines.
class WsClient {
public:
    /// Connects and completes the handshake with `headers` (e.g. Cookie, Origin); the
    /// handshake's HTTP status is in `status` (101 when upgraded).
    WsClient(const InspectorFixture& fixture, const Headers& headers);
    [[nodiscard]] bool upgraded() const { return upgraded_; }
    [[nodiscard]] unsigned status() const { return status_; }

    void send(const std::string& text);
    /// The next message, or nullopt when none came within `timeout` or the socket closed
    /// (`closedWith` then tells the close code, 0 when none).
    [[nodiscard]] std::optional<nlohmann::json> next(std::chrono::milliseconds timeout = 10s);
    /// The next message that is not an event (a reply).
    [[nodiscard]] std::optional<nlohmann::json> reply(std::chrono::milliseconds timeout = 10s);
    /// Waits for {"event":"inspector","data":{"host":state}}.
    [[nodiscard]] bool waitForHost(const std::string& state,
                                   std::chrono::milliseconds timeout = 10s);
    [[nodiscard]] int closedWith() const { return closedWith_; }
    [[nodiscard]] const std::string& lastError() const { return lastError_; }

private:
    boost::asio::io_context io_;
    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
    bool upgraded_ = false;
    unsigned status_ = 0;
    int closedWith_ = 0;
    std::string lastError_;
};

} // namespace scripthost::inspector::test

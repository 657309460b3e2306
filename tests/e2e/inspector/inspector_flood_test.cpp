// Bad input over the inspector's WebSocket against a real `scripthost run --inspect`:
// malformed JSON, requests without a command or with an unknown one, too deep nesting, and
// messages at and over the 1 MiB limit get the control socket's own replies (the control socket
// is asked the same lines first and is the oracle), while 20 tabs flood the bridge with them and
// the game's frames keep advancing.
#include "../support/daemon_client.hpp"
#include "inspector_url.hpp"

#include <atomic>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket.hpp>
#include <map>
#include <memory>
#include <regex>
#include <thread>

using namespace scripthost;
using namespace scripthost::testing;
using scripthost::control::ControlClient;
namespace fs = std::filesystem;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {

// Generous: the machine is shared and runs tests three at a time beside a build.
constexpr auto kDeadline = std::chrono::seconds(60);
constexpr std::size_t kMessageLimit = 1024 * 1024; // InspectorOptions' and the socket's default
constexpr int kTabs = 20;
constexpr int kCyclesPerBatch = 3;     // each batch sends every probe this many times, pipelined
constexpr int kMinBatches = 10;        // 210 messages per tab at least
constexpr int kSamples = 5;            // frame samples taken while the tabs flood
constexpr int kRepliesPerSample = 400; // flood replies between two samples

/// One kind of request line; `code` is the documented error code (PROTOCOL.md, "Connection-level
/// errors" and "Error codes"), empty for a valid request.
struct Probe {
    std::string (*line)(int id);
    std::string code;
    bool echoesId; ///< the reply carries the request's id
};

std::string withId(int id, const std::string& rest) {
    return "{\"id\":" + std::to_string(id) + rest + "}";
}

const std::vector<Probe>& probes() {
    static const std::vector<Probe> all = {
        {[](int) { return std::string("{not json"); }, "bad_json", false},
        {[](int id) { return withId(id, R"(,"nocmd":true)"); }, "bad_request", true},
        {[](int id) { return withId(id, R"(,"cmd":7)"); }, "bad_request", true},
        {[](int) { return std::string(R"(["status"])"); }, "bad_request", false},
        // Nested past the 64 levels: refused before the id is read, so without it.
        {[](int id) {
             return withId(id, R"(,"cmd":"status","deep":)" + std::string(100, '[') +
                                   std::string(100, ']'));
         },
         "bad_request", false},
        {[](int id) { return withId(id, R"(,"cmd":"no_such_command")"); }, "unknown_command", true},
        {[](int id) { return withId(id, R"(,"cmd":"status")"); }, "", true}};
    return all;
}

/// A status request padded to exactly `size` bytes.
std::string paddedStatus(const std::string& id, std::size_t size) {
    const std::string head = R"({"id":")" + id + R"(","cmd":"status","pad":")";
    return head + std::string(size - head.size() - 2, 'x') + "\"}";
}

/// What the control socket itself answers each probe, its id removed: the WebSocket's error
/// replies must equal it (a status is checked for ok and its frame). Also checks that the
/// answers are the documented ones, and the socket's own 1 MiB limit.
std::vector<nlohmann::json> askControlSocket(const fs::path& socket, HostProcess& host) {
    ControlClient client = connectTo(socket, host);
    std::vector<nlohmann::json> oracle;
    for (std::size_t index = 0; index < probes().size(); ++index) {
        const Probe& probe = probes()[index];
        const int id = 1000 + static_cast<int>(index);
        auto reply = client.sendRaw(probe.line(id), kCallTimeout);
        REQUIRE_MESSAGE(reply.has_value(), errorOf(reply));
        CAPTURE(reply->dump());
        CHECK(reply->value("ok", true) == probe.code.empty());
        if (!probe.code.empty())
            CHECK((*reply)["error"]["code"] == probe.code);
        CHECK(reply->contains("id") == probe.echoesId);
        if (probe.echoesId)
            CHECK((*reply)["id"] == id);
        reply->erase("id");
        oracle.push_back(*reply);
    }
    // The limit: a line of exactly 1 MiB is a request; one byte more is line_too_long.
    auto atLimit = client.sendRaw(paddedStatus("at-limit", kMessageLimit), kCallTimeout);
    REQUIRE_MESSAGE(atLimit.has_value(), errorOf(atLimit));
    CHECK_MESSAGE(atLimit->value("ok", false), atLimit->dump());
    auto over = client.sendRaw(paddedStatus("over-limit", kMessageLimit + 1), kCallTimeout);
    REQUIRE_MESSAGE(over.has_value(), errorOf(over));
    CHECK_MESSAGE((*over)["error"]["code"] == "line_too_long", over->dump());
    return oracle;
}

/// A browser tab's WebSocket to the inspector's /ws. Blocking; every operation is asynchronous
/// underneath so that the stream's deadline applies (a synchronous Beast call would ignore it).
class Tab {
public:
    explicit Tab(const Url& url) : url_(url), ws_(io_) {}

    /// Connects with the headers a browser sends and waits for the bridge's "connected".
    bool open() {
        const std::string host = "127.0.0.1:" + std::to_string(url_.port);
        const std::string cookie =
            "scripthost-inspector-" + std::to_string(url_.port) + "=" + url_.token;
        ws_.set_option(
            websocket::stream_base::decorator([host, cookie](websocket::request_type& request) {
                request.set(beast::http::field::origin, "http://" + host);
                request.set(beast::http::field::cookie, cookie);
            }));
        const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), url_.port);
        if (!finish(
                "connect",
                [&](auto done) { beast::get_lowest_layer(ws_).async_connect(endpoint, done); }) ||
            !finish("handshake", [&](auto done) { ws_.async_handshake(host, "/ws", done); }))
            return false;
        auto first = next();
        if (first && (*first)["event"] == "inspector" && (*first)["data"]["host"] == "connected")
            return true;
        return fail("first message", first ? first->dump() : error_);
    }

    bool send(const std::string& text) {
        ws_.text(true);
        return finish("send", [&](auto done) { ws_.async_write(asio::buffer(text), done); });
    }

    /// The next message; nullopt when the socket failed or closed (see error(), closeCode()).
    std::optional<nlohmann::json> next() {
        beast::flat_buffer buffer;
        if (!finish("read", [&](auto done) { ws_.async_read(buffer, done); }))
            return std::nullopt;
        return nlohmann::json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
    }

    /// The close code the server sent (1009: message too big), 0 when none.
    [[nodiscard]] int closeCode() const { return ws_.reason().code; }
    [[nodiscard]] const std::string& error() const { return error_; }

private:
    bool fail(const std::string& what, const std::string& why) {
        error_ = what + ": " + why;
        return false;
    }

    // Starts one operation and runs it to completion or to the deadline.
    template <typename Start> bool finish(const char* what, Start start) {
        beast::error_code result = asio::error::timed_out;
        beast::get_lowest_layer(ws_).expires_after(kDeadline);
        start([&result](beast::error_code ec, auto&&...) { result = ec; });
        io_.restart();
        io_.run();
        return !result || fail(what, result.message());
    }

    Url url_;
    asio::io_context io_;
    websocket::stream<beast::tcp_stream> ws_;
    std::string error_;
};

/// What the flooding tabs share with the test's thread.
struct Flood {
    std::atomic<int> replies{0}; ///< replies checked, over all tabs
    std::atomic<int> stopped{0}; ///< tabs that stopped flooding (a failure, or asked to)
};

/// One batch: every probe kCyclesPerBatch times, all sent before any reply is read; then every
/// reply, matched to its request by id (replies the host's main thread gives can come after
/// the server thread's id-less errors for later lines). Returns what went wrong, or "".
std::string floodBatch(Tab& tab, const std::vector<nlohmann::json>& oracle, int& nextId,
                       std::int64_t& lastFrame, Flood& flood) {
    std::map<int, std::size_t> byId;   // id → probe
    std::map<std::string, int> idless; // expected reply text → how many
    for (int cycle = 0; cycle < kCyclesPerBatch; ++cycle) {
        for (std::size_t index = 0; index < probes().size(); ++index) {
            const int id = nextId++;
            if (!tab.send(probes()[index].line(id)))
                return tab.error();
            if (probes()[index].echoesId)
                byId[id] = index;
            else
                ++idless[oracle[index].dump()];
        }
    }
    // Exactly one reply per line sent.
    for (std::size_t left = kCyclesPerBatch * probes().size(); left > 0; --left) {
        std::optional<nlohmann::json> reply = tab.next();
        if (!reply)
            return tab.error();
        if (reply->contains("event"))
            return "an event during the flood: " + reply->dump();
        if (!reply->contains("id")) {
            auto expected = idless.find(reply->dump());
            if (expected == idless.end() || expected->second == 0)
                return "an id-less reply the control socket did not give: " + reply->dump();
            --expected->second;
        } else {
            const auto found = (*reply)["id"].is_number_integer()
                                   ? byId.find((*reply)["id"].get<int>())
                                   : byId.end();
            if (found == byId.end())
                return "a reply to no request in flight: " + reply->dump();
            const std::size_t index = found->second;
            byId.erase(found);
            if (probes()[index].code.empty()) {
                // A status: the frame it reports never goes back.
                const nlohmann::json frame = (*reply)["result"]["frame"];
                if (!reply->value("ok", false) || !frame.is_number_integer() ||
                    frame.get<std::int64_t>() < lastFrame)
                    return "a bad status reply (last frame " + std::to_string(lastFrame) +
                           "): " + reply->dump();
                lastFrame = frame.get<std::int64_t>();
            } else {
                reply->erase("id");
                if (*reply != oracle[index])
                    return "got " + reply->dump() + ", the control socket said " +
                           oracle[index].dump();
            }
        }
        ++flood.replies;
    }
    return "";
}

/// A tab's thread: batches until asked to stop (and kMinBatches at least).
std::string floodTab(std::stop_token stop, Tab& tab, const std::vector<nlohmann::json>& oracle,
                     Flood& flood) {
    int nextId = 1;
    std::int64_t lastFrame = 0;
    std::string failure;
    for (int batch = 0; failure.empty() && (batch < kMinBatches || !stop.stop_requested()); ++batch)
        failure = floodBatch(tab, oracle, nextId, lastFrame, flood);
    ++flood.stopped;
    return failure;
}

/// A tab of its own sends a message of exactly the limit (answered) and then one byte more:
/// the server closes it with 1009. Returns what went wrong, or "".
std::string sendHugeMessages(const Url& url) {
    Tab tab(url);
    if (!tab.open())
        return tab.error();
    if (!tab.send(paddedStatus("at-limit", kMessageLimit)))
        return tab.error();
    auto reply = tab.next();
    if (!reply || (*reply)["id"] != "at-limit" || !reply->value("ok", false))
        return "the message of exactly 1 MiB: " + (reply ? reply->dump() : tab.error());
    // Beast's server reads the rest of the frame while it closes, so the write completes.
    if (!tab.send(paddedStatus("over-limit", kMessageLimit + 1)))
        return tab.error();
    if (auto unexpected = tab.next())
        return "a message after one over the limit: " + unexpected->dump();
    if (tab.closeCode() != 1009)
        return "closed with " + std::to_string(tab.closeCode()) + " (" + tab.error() + ")";
    return "";
}

std::int64_t frameOf(ControlClient& client) {
    return callOk(client, "status")["frame"].get<std::int64_t>();
}

/// Waits (with the deadline) for the flood to deliver kRepliesPerSample more replies, then for
/// the frame to pass the last sample's. False when either did not come, or when a tab stopped
/// flooding (its failure is reported after the join).
bool sampleFrame(ControlClient& client, const Flood& flood, std::vector<std::int64_t>& frames) {
    const int mark = flood.replies + kRepliesPerSample;
    const bool replied =
        waitUntil([&] { return flood.replies >= mark || flood.stopped > 0; }, kDeadline);
    CHECK_MESSAGE(replied, "replies so far: " << flood.replies.load());
    if (!replied || flood.stopped > 0)
        return false;
    std::int64_t frame = 0;
    const bool advanced = waitUntil(
        [&] {
            frame = frameOf(client);
            return frame > frames.back();
        },
        kDeadline);
    CHECK_MESSAGE(advanced, "the frame stayed at " << frames.back() << " during the flood");
    frames.push_back(frame);
    return advanced;
}

} // namespace

TEST_CASE("inspector: bad input over the WebSocket from 20 flooding tabs gets the control "
          "socket's own errors and frames keep advancing") {
    TempDir dir("inspect-flood");
    writeFile(dir.path() / "scripts" / "Counter.cs", kCounter);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--control", socket.string(), "--scripts",
                      (dir.path() / "scripts").string(), "--headless", "--cold-compiler",
                      "--no-supervise", "--state", (dir.path() / "state.json").string(),
                      "--inspect"},
                     dir.path());
    ControlClient client = connectTo(socket, host);
    const nlohmann::json status = callOk(client, "status");
    REQUIRE_MESSAGE(status["inspector"].is_object(), status.dump());
    const Url url = parseUrl(status["inspector"]["url"]);
    const std::vector<nlohmann::json> oracle = askControlSocket(socket, host);

    std::vector<std::unique_ptr<Tab>> tabs;
    for (int i = 0; i < kTabs; ++i) {
        tabs.push_back(std::make_unique<Tab>(url));
        REQUIRE_MESSAGE(tabs.back()->open(), "tab " << i << ": " << tabs.back()->error());
    }
    Flood flood;
    std::vector<std::string> failures(kTabs);
    std::string hugeFailure = "did not finish";
    std::vector<std::int64_t> frames = {frameOf(client)}; // before the flood
    const auto floodStart = std::chrono::steady_clock::now();
    {
        // jthreads: asked to stop and joined on the way out, a failed REQUIRE included.
        std::vector<std::jthread> threads;
        for (int i = 0; i < kTabs; ++i)
            threads.emplace_back([&, i](std::stop_token stop) {
                failures[i] = floodTab(stop, *tabs[i], oracle, flood);
            });
        std::jthread huge([&] { hugeFailure = sendHugeMessages(url); });
        bool flooding = true;
        for (int sample = 0; flooding && sample < kSamples; ++sample)
            flooding = sampleFrame(client, flood, frames);
        // The oversized tab is closed; the others flood on and the frames advance.
        huge.join();
        CHECK_MESSAGE(hugeFailure.empty(), hugeFailure);
        CHECK_MESSAGE((flooding && sampleFrame(client, flood, frames)),
                      "the flood or the frames stopped before the last sample");
    }
    CHECK(frames.size() == kSamples + 2); // before, kSamples during, one after the 1009
    for (int i = 0; i < kTabs; ++i)
        CHECK_MESSAGE(failures[i].empty(), "tab " << i << ": " << failures[i]);
    const auto floodMs = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - floodStart);
    MESSAGE("frames during the flood: " << frames.front() << " to " << frames.back() << " in "
                                        << floodMs.count() << " ms, " << flood.replies.load()
                                        << " replies; frameMs "
                                        << callOk(client, "status")["frameMs"].dump());

    // After it: the host answers, its frames still advance, and every tab still works.
    CHECK(waitUntil([&] { return frameOf(client) > frames.back(); }, kDeadline));
    for (int i = 0; i < kTabs; ++i) {
        if (!failures[i].empty())
            continue; // reported above; its replies are out of step
        CAPTURE(i);
        REQUIRE_MESSAGE(tabs[i]->send(R"({"id":"after","cmd":"status"})"), tabs[i]->error());
        const auto reply = tabs[i]->next();
        REQUIRE_MESSAGE(reply.has_value(), tabs[i]->error());
        CHECK_MESSAGE((*reply)["id"] == "after", reply->dump());
        CHECK_MESSAGE(reply->value("ok", false), reply->dump());
    }
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(kDeadline) == 0, host.output());
}

// DebuggerPauseResponder without a debugger client: it leaves every request to the main thread,
// however long the main thread is away (only a client attached to Mono's agent makes it answer:
// that path needs a real debugger and is tested in tests/e2e/debugger/debugger_sdb_test.cpp), and
// describe() says how the agent meets its client. A real control server on a temp socket and a
// real client.
#include "debugger_pause_responder.hpp"

#include "../../support/test_support.hpp"
#include "control/control_client.hpp"
#include "control/control_server.hpp"

#include <doctest/doctest.h>
#include <future>

using namespace scripthost;
using namespace scripthost::testing;
using namespace std::chrono_literals;

TEST_CASE("DebuggerPauseResponder: with no debugger client attached the main thread answers "
          "every request, however long it was away") {
    TempDir dir("pause-responder");
    auto server = control::ControlServer::open(dir / "control.sock");
    REQUIRE_MESSAGE(server, (server ? "" : server.error().message));
    DebuggerPauseResponder responder(**server, "listening on 127.0.0.1:55555", 20ms);
    responder.mainThreadServing(3, 120);

    auto reply = std::async(std::launch::async, [&] {
        return control::ControlClient::request(dir / "control.sock", "status",
                                               nlohmann::json::object(), 5s, 10s);
    });
    REQUIRE((*server)->waitForRequest(5s));
    // Far longer than heldAfter: a responder that thought the main thread held would answer.
    std::this_thread::sleep_for(300ms);
    const auto requests = (*server)->takeRequests();
    REQUIRE(requests.size() == 1); // still queued for the main thread
    CHECK(requests[0].cmd == "status");
    (*server)->reply(requests[0], nlohmann::json{{"state", "running"}, {"frame", 121}});
    const auto answered = reply.get();
    REQUIRE_MESSAGE(answered, (answered ? "" : answered.error().message));
    CHECK((*answered)["state"] == "running"); // the main thread's answer, not "paused in debugger"
    CHECK((*answered)["frame"] == 121);
}

TEST_CASE("DebuggerPauseResponder: describe() names the agent and whether a client is attached") {
    TempDir dir("pause-responder-describe");
    auto server = control::ControlServer::open(dir / "control.sock");
    REQUIRE(server);
    DebuggerPauseResponder responder(**server, "connecting to 127.0.0.1:4711");
    const nlohmann::json described = responder.describe();
    CHECK(described["agent"] == "connecting to 127.0.0.1:4711");
    CHECK(described["attached"] == false);
}

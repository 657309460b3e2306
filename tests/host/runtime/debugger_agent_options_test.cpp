// DebuggerAgentOptions and the run options that make them: what Mono's agent is told, and the
// clear errors for a bad port or HOST:PORT.

#include "host/runtime/debugger_agent_options.hpp"
#include "run_options.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("debugger agent: --debug listens on loopback, --debug-connect connects out, never "
          "suspended at start") {
    auto listen = DebuggerAgentOptions::listenOn(4711);
    REQUIRE(listen.has_value());
    CHECK(listen->agentArgument() ==
          "--debugger-agent=transport=dt_socket,address=127.0.0.1:4711,server=y,suspend=n");
    CHECK(listen->describe() == "listening on 127.0.0.1:4711");

    auto connect = DebuggerAgentOptions::connectTo("ide.local:55556");
    REQUIRE(connect.has_value());
    CHECK(connect->host == "ide.local");
    CHECK(connect->port == 55556);
    CHECK(connect->agentArgument() ==
          "--debugger-agent=transport=dt_socket,address=ide.local:55556,server=n,suspend=n");
    CHECK(connect->describe() == "connecting to ide.local:55556");
}

TEST_CASE("debugger agent: a port out of range or a malformed HOST:PORT is a clear error") {
    CHECK(DebuggerAgentOptions::listenOn(0).error().message ==
          "debugger port 0 is out of range (1-65535)");
    CHECK(DebuggerAgentOptions::listenOn(65536).error().message ==
          "debugger port 65536 is out of range (1-65535)");
    CHECK(DebuggerAgentOptions::listenOn(65535).has_value());

    const auto why = [](std::string_view text) {
        auto parsed = DebuggerAgentOptions::connectTo(text);
        REQUIRE_FALSE(parsed.has_value());
        return parsed.error().message;
    };
    CHECK(why("127.0.0.1") ==
          "--debug-connect \"127.0.0.1\": no port (expected HOST:PORT, e.g. 127.0.0.1:55555)");
    CHECK(why(":4711").find("no host") != std::string::npos);
    CHECK(why("127.0.0.1:").find("the port is not a number") != std::string::npos);
    CHECK(why("127.0.0.1:47x").find("the port is not a number") != std::string::npos);
    CHECK(why("::1:4711").find("no host") != std::string::npos);
    CHECK(why("host:1:2").find("more than one ':'") != std::string::npos);
    CHECK(why("127.0.0.1:70000").find("debugger port 70000 is out of range") !=
          std::string::npos);
}

TEST_CASE("debugger agent: run options ask for no agent, a listening one or a connecting one") {
    RunOptions options;
    auto none = options.debuggerAgent();
    REQUIRE(none.has_value());
    CHECK_FALSE(none->has_value());

    options.debugPort = 55555;
    auto listen = options.debuggerAgent();
    REQUIRE(listen.has_value());
    REQUIRE(listen->has_value());
    CHECK((*listen)->mode == DebuggerAgentOptions::Mode::Listen);
    CHECK((*listen)->port == 55555);

    options.debugConnect = "127.0.0.1:4000";
    CHECK(options.debuggerAgent().error().message ==
          "--debug and --debug-connect exclude each other");

    options.debugPort.reset();
    auto connect = options.debuggerAgent();
    REQUIRE(connect.has_value());
    REQUIRE(connect->has_value());
    CHECK((*connect)->mode == DebuggerAgentOptions::Mode::Connect);
    CHECK((*connect)->port == 4000);
}

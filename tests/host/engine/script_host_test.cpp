// ScriptHost::create: what it needs before it starts the runtime. (Frames, scenes and
// reloads are tested with the runtime in domain/, reload/ and engine/snapshot_test.cpp.)
#include "host/engine/script_host.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("ScriptHost: create refuses options without the engine's internal calls, before "
          "starting the runtime") {
    ScriptHostOptions options;
    options.scriptCore = "/nonexistent/ScriptCore.dll";
    auto host = ScriptHost::create(options);
    REQUIRE_FALSE(host);
    CHECK(host.error().message.find("registerInternalCalls") != std::string::npos);
    // The registration is checked first: no ScriptCore was read and no runtime was started
    // (the error does not mention ScriptCore).
    CHECK(host.error().message.find("ScriptCore") == std::string::npos);
}

// ScriptCore's UnhandledExceptions internal call (host/glue/src/unhandled_exception_glue.cpp),
// driven by C# compiled by the test in a real ScriptHost: an exception no one catches on a
// thread a script started, and reports made straight through the internal call (no script,
// no exception), reach the main thread and are counted on a later frame, charged to the
// script of that class when there is one and disabling none.
#include "../support/glue_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kThreadThrower = R"(
using System;
using System.Threading;
using UEngine;

public class ThreadThrower : UMonoScriptComponent
{
    [SerializeField] int updates;
    [SerializeField] bool threadEnded;
    [SerializeField] string direct = "";

    public override void Update(float deltaTime)
    {
        updates++;
        if (updates != 1) return;
        var thread = new Thread(() => { throw new InvalidOperationException("off the loop ✓"); });
        thread.Start();
        threadEnded = thread.Join(TimeSpan.FromSeconds(30)); // its handler has run by then
        Type reports = typeof(UObject).Assembly.GetType("UEngine.Internal.UnhandledExceptions");
        direct = Probe.Outcome(() =>
        {
            Probe.Call(reports, "Internal_ReportUnhandled", 5, null, new ArgumentException("reported ✓"));
            Probe.Call(reports, "Internal_ReportUnhandled", 4, "NoSuchScript", null);
        });
    }
}
)";

} // namespace

TEST_CASE("Unhandled exception glue: an exception no one catches off the game loop is counted "
          "against its script on a later frame, and a report without script or exception too") {
    GlueHost host("unhandled", kThreadThrower, 1);
    const ObjectId s = spawnScript(*host, "ThreadThrower");
    host->tick(0.016);
    REQUIRE(fieldOf<bool>(*host, s, "threadEnded"));
    CHECK(host.text(s, "direct") == "ok");
    for (int frame = 0; frame < 3 && host->scriptFailureCount() < 3; ++frame)
        host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 3);

    const auto& failures = host->recentFailures();
    const ScriptFailure& thread = failures[0];
    CHECK(thread.phase == ScriptPhase::OffLoop);
    CHECK(thread.className == "ThreadThrower");
    CHECK(thread.script == s);
    CHECK(thread.exceptionType == "System.InvalidOperationException");
    CHECK(thread.message == "off the loop ✓");
    CHECK_FALSE(thread.disabled);

    const ScriptFailure& direct = failures[1];
    CHECK(direct.phase == ScriptPhase::OffLoop);
    CHECK(direct.className == "");
    CHECK(direct.script.isNull());
    CHECK(direct.exceptionType == "System.ArgumentException");
    CHECK(direct.message == "reported ✓");

    const ScriptFailure& empty = failures[2];
    CHECK(empty.className == "NoSuchScript");
    CHECK(empty.script.isNull());
    CHECK(empty.exceptionType == "<null>");

    // Off-loop failures never disable (the limit here is one failure).
    const std::int64_t updates = fieldOf<std::int64_t>(*host, s, "updates");
    host->tick(0.016);
    CHECK(host->world().script(s)->enabled);
    CHECK(fieldOf<std::int64_t>(*host, s, "updates") == updates + 1);
}

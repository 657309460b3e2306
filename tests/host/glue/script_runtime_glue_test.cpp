// The managed dispatcher's internal calls (host/glue/src/script_runtime_glue.cpp), driven by C#
// compiled by the test in a real ScriptHost: a script's exception reaches the host as a
// ScriptFailure with its script, class, phase, type, message, text and count in a row, and the
// script is disabled at the host's limit; an await continuation's exception that no single
// script owns is reported with its class and disables nothing.
#include "../support/glue_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kBoomer = R"(
using System;
using UEngine;

public class Boomer : UMonoScriptComponent
{
    [SerializeField] int updates;

    public override void Update(float deltaTime)
    {
        updates++;
        throw new InvalidOperationException("boom " + updates + " ✓");
    }
}

public class FixedBoomer : UMonoScriptComponent
{
    [SerializeField] int fixedUpdates;

    public override void FixedUpdate(float fixedDeltaTime)
    {
        fixedUpdates++;
        throw new ArgumentException("fixed boom");
    }
}
)";

/// The failures reported for `script`, oldest first.
std::vector<ScriptFailure> failuresOf(ScriptHost& host, ObjectId script) {
    std::vector<ScriptFailure> found;
    for (const ScriptFailure& f : host.recentFailures()) {
        if (f.script == script)
            found.push_back(f);
    }
    return found;
}

} // namespace

TEST_CASE("Script runtime glue: a script's exception is reported with its script, class, phase, "
          "type, message and count in a row, and disables it at the host's limit") {
    GlueHost host("script-runtime", kBoomer, 3);
    const ObjectId boomer = spawnScript(*host, "Boomer");
    const ObjectId fixedBoomer = spawnScript(*host, "FixedBoomer");
    for (int i = 0; i < 10; ++i)
        host->tick(0.016); // 0.16 s: more than 3 fixed steps of 0.02 s

    CHECK(fieldOf<std::int64_t>(*host, boomer, "updates") == 3);
    CHECK(fieldOf<std::int64_t>(*host, fixedBoomer, "fixedUpdates") == 3);
    CHECK_FALSE(host->world().script(boomer)->enabled);
    CHECK_FALSE(host->world().script(fixedBoomer)->enabled);
    REQUIRE(host->scriptFailureCount() == 6);
    const auto updates = failuresOf(*host, boomer);
    const auto fixedUpdates = failuresOf(*host, fixedBoomer);
    REQUIRE(updates.size() == 3);
    REQUIRE(fixedUpdates.size() == 3);
    for (int n = 1; n <= 3; ++n) {
        CAPTURE(n);
        const ScriptFailure& f = updates[static_cast<std::size_t>(n - 1)];
        CHECK(f.className == "Boomer");
        CHECK(f.phase == ScriptPhase::Update);
        CHECK(f.exceptionType == "System.InvalidOperationException");
        CHECK(f.message == "boom " + std::to_string(n) + " ✓");
        CHECK(f.consecutive == n);
        CHECK(f.disabled == (n == 3));
        CHECK_FALSE(f.stopped);
        CHECK_MESSAGE(contains(f.text, "Boomer.Update"), f.text);
        const ScriptFailure& fixed = fixedUpdates[static_cast<std::size_t>(n - 1)];
        CHECK(fixed.className == "FixedBoomer");
        CHECK(fixed.phase == ScriptPhase::FixedUpdate);
        CHECK(fixed.exceptionType == "System.ArgumentException");
        CHECK(fixed.message == "fixed boom");
        CHECK(fixed.consecutive == n);
        CHECK(fixed.disabled == (n == 3));
    }
    host->tick(0.1);
    CHECK(fieldOf<std::int64_t>(*host, boomer, "updates") == 3); // disabled: not called again
    CHECK(fieldOf<std::int64_t>(*host, fixedBoomer, "fixedUpdates") == 3);
    CHECK(host->scriptFailureCount() == 6);
}

namespace {

const std::string kTwice = R"(
using System;
using System.Threading.Tasks;
using UEngine;

public class Twice : UMonoScriptComponent
{
    [SerializeField] int updates;

    public override void Update(float deltaTime)
    {
        updates++;
        if (updates == 1) Later();
    }

    async void Later()
    {
        await Task.Yield();
        throw new InvalidOperationException("after the await ✓");
    }
}
)";

} // namespace

TEST_CASE("Script runtime glue: an await continuation's exception that no single script owns is "
          "reported with its class and disables no script") {
    GlueHost host("script-runtime-unattributed", kTwice, 1);
    const ObjectId first = spawnScript(*host, "Twice");
    const ObjectId second = spawnScript(*host, "Twice"); // two of the class: neither is charged
    for (int frame = 0; frame < 10 && host->scriptFailureCount() < 2; ++frame)
        host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 2);
    for (const ScriptFailure& f : host->recentFailures()) {
        CHECK(f.script.isNull());
        CHECK(f.className == "Twice");
        CHECK(f.phase == ScriptPhase::Continuation);
        CHECK(f.exceptionType == "System.InvalidOperationException");
        CHECK(f.message == "after the await ✓");
        CHECK_FALSE(f.disabled);
    }
    // With a limit of one failure, a charged failure would have disabled its script.
    const std::int64_t before = fieldOf<std::int64_t>(*host, first, "updates");
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, first, "updates") == before + 1);
    CHECK(host->world().script(first)->enabled);
    CHECK(host->world().script(second)->enabled);
}

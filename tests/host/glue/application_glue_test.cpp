// UEngine.Application's internal call (host/glue/src/application_glue.cpp), run from C# compiled
// by the test in a real ScriptHost: gameModule is "" with no game module and the attached
// module's name once one is set, read afresh each call; another thread is refused.
#include "../support/glue_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kAsker = R"(
using System;
using UEngine;

public class Asker : UMonoScriptComponent
{
    [SerializeField] string module = "unset";
    [SerializeField] bool hasAttached;
    [SerializeField] bool hasOther;
    [SerializeField] string offThread = "";

    public override void Update(float deltaTime)
    {
        module = Application.gameModule;
        hasAttached = Application.HasGameModule("space game ✓");
        hasOther = Application.HasGameModule("space game");
        offThread = Probe.OnThread(() => { string m = Application.gameModule; });
    }
}
)";

} // namespace

TEST_CASE("Application glue: gameModule is empty with no game module, then names the attached "
          "one, and is refused off the game loop's thread") {
    GlueHost host("application", kAsker);
    const ObjectId s = spawnScript(*host, "Asker");
    host->tick(0.016);
    CHECK(host.text(s, "module") == "");
    CHECK_FALSE(fieldOf<bool>(*host, s, "hasAttached"));

    host->setGameModuleName("space game ✓");
    host->tick(0.016);
    CHECK(host.text(s, "module") == "space game ✓");
    CHECK(fieldOf<bool>(*host, s, "hasAttached"));
    CHECK_FALSE(fieldOf<bool>(*host, s, "hasOther"));

    host->setGameModuleName("");
    host->tick(0.016);
    CHECK(host.text(s, "module") == "");
    const std::string offThread = host.text(s, "offThread");
    CHECK_MESSAGE(contains(offThread, "System.InvalidOperationException"), offThread);
    CHECK_MESSAGE(contains(offThread, "outside the host's game loop"), offThread);
    CHECK(host->scriptFailureCount() == 0);
}

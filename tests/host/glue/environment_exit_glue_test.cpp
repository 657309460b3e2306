// System.Environment.Exit and FailFast replaced (host/glue/src/environment_exit_glue.cpp), run
// from C# compiled by the test in a real ScriptHost: reached through reflection and through a
// delegate — which the build's forbidden-calls scan cannot see — each throws
// InvalidOperationException in the script, on the game loop and on another thread, and the
// host ticks on.
#include "../support/glue_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kQuitter = R"(
using System;
using System.Reflection;
using UEngine;

public class Quitter : UMonoScriptComponent
{
    [SerializeField] string exitByReflection = "";
    [SerializeField] string exitByDelegate = "";
    [SerializeField] string failFast = "";
    [SerializeField] string offThread = "";
    [SerializeField] int updates;

    public override void Update(float deltaTime)
    {
        updates++;
        MethodInfo exit = typeof(Environment).GetMethod("Exit");
        exitByReflection = Probe.Outcome(() => exit.Invoke(null, new object[] { 3 }));
        var quit = (Action<int>)Delegate.CreateDelegate(typeof(Action<int>), exit);
        exitByDelegate = Probe.Outcome(() => quit(4));
        MethodInfo fail = typeof(Environment).GetMethod("FailFast", new[] { typeof(string) });
        failFast = Probe.Outcome(() => fail.Invoke(null, new object[] { "bye" }));
        offThread = Probe.OnThread(() => exit.Invoke(null, new object[] { 5 }));
    }
}
)";

} // namespace

TEST_CASE("Environment glue: Exit and FailFast reached through reflection or a delegate throw "
          "InvalidOperationException in the script, and the host ticks on") {
    GlueHost host("environment-exit", kQuitter);
    const ObjectId s = spawnScript(*host, "Quitter");
    host->tick(0.016);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, s, "updates") == 2);
    const std::string refused = "System.InvalidOperationException: Environment.Exit(";
    CHECK_MESSAGE(contains(host.text(s, "exitByReflection"), refused + "3) is refused"),
                  host.text(s, "exitByReflection"));
    CHECK_MESSAGE(contains(host.text(s, "exitByDelegate"), refused + "4) is refused"),
                  host.text(s, "exitByDelegate"));
    CHECK_MESSAGE(contains(host.text(s, "offThread"), refused + "5) is refused"),
                  host.text(s, "offThread"));
    CHECK_MESSAGE(contains(host.text(s, "failFast"),
                           "System.InvalidOperationException: Environment.FailFast(\"bye\") is "
                           "refused: scripts cannot end the host"),
                  host.text(s, "failFast"));
    CHECK(host->scriptFailureCount() == 0); // caught by the script: not its failure
}

// swapGeneration and instantiateAhead, driven directly (no ReloadTransaction): a swap carries every
// script into the new generation under the same ids, parks a script whose class is gone and hands
// back the old generation; a failure leaves the host on the old generation exactly as it was, and
// the new one to the caller; instances made ahead are kept by the swap.
#include "../support/mono_test_support.hpp"
#include "generation_swap.hpp"
#include "host/domain/script_domain.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// A Counter that adds `step` each frame; `extra` is more C# in the class.
std::string counter(const std::string& step, const std::string& extra = "") {
    return "using UEngine;\n"
           "public class Counter : UMonoScriptComponent {\n"
           "    [SerializeField] int ticks;\n"
           "    public override void Update(float dt) { ticks += " +
           step + "; }\n" + extra + "}\n";
}

constexpr const char* kGone = "using UEngine;\n"
                              "public class Gone : UMonoScriptComponent {\n"
                              "    [SerializeField] int kept = 7;\n"
                              "}\n";

/// Generation `host`'s next number, loaded with `scripts` and warmed, as a reload's stages
/// before the swap leave it.
std::unique_ptr<ScriptDomain> nextGeneration(ScriptHost& host, const AssemblyFile& scripts) {
    auto next =
        ScriptDomain::create(host.takeGenerationNumber(), host.scriptCore(), scripts, host.world());
    REQUIRE_MESSAGE(next, (next ? "" : next.error().message));
    REQUIRE((*next)->warmUp()); // no slice: the whole warm-up
    return std::move(*next);
}

} // namespace

TEST_CASE("GenerationSwap: every script is carried into the new generation under its id, one "
          "whose class is gone is parked, and the old generation is handed back") {
    TempDir dir("generation-swap");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("1")}, {"Gone.cs", kGone}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Counter.cs", counter("10")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    const ObjectId g = spawnScript(*host, "Gone");
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    REQUIRE(fieldOf<std::int64_t>(*host, c, "ticks") == 3);

    std::unique_ptr<ScriptDomain> next = nextGeneration(*host, v2);
    ScriptDomain* incoming = next.get();
    ReloadReport report;
    auto old = swapGeneration(*host, next, report);
    REQUIRE_MESSAGE(old, (old ? "" : old.error().phase + ": " + old.error().message));
    CHECK(next == nullptr); // the host owns it now
    CHECK(host->domain() == incoming);
    CHECK((*old)->generation() == 1);
    CHECK(host->domain()->generation() == 2);
    CHECK(report.fromGeneration == 1);
    CHECK(report.restored == 1);
    CHECK(report.parked == 1);
    REQUIRE(report.missingClasses.size() == 1);
    CHECK(report.missingClasses[0].rfind("Gone " + g.toString(), 0) == 0);
    CHECK(host->world().script(g)->parked);
    CHECK(host->domain()->hasInstance(c, "Counter"));
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 3); // carried
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 13); // the new code runs

    old->reset(); // the caller lets go of the old generation: unloaded here
    CHECK(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
}

TEST_CASE("GenerationSwap: OnAfterReload that throws fails the swap in its hooks phase and leaves "
          "the host on the old generation as it was") {
    TempDir dir("generation-swap");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("1")}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Counter.cs",
          counter("10", "    public override void OnAfterReload() {\n"
                        "        throw new System.InvalidOperationException(\"no reload\");\n"
                        "    }\n")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    ScriptDomain* before = host->domain();

    std::unique_ptr<ScriptDomain> next = nextGeneration(*host, v2);
    ReloadReport report;
    auto swapped = swapGeneration(*host, next, report);
    REQUIRE_FALSE(swapped);
    CHECK(swapped.error().phase == "hooks");
    CHECK_MESSAGE(swapped.error().message.find("no reload") != std::string::npos,
                  swapped.error().message);
    CHECK(next != nullptr); // left to the caller to unload
    CHECK(host->domain() == before);
    CHECK(host->domain()->generation() == 1);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 3);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 4); // the old code still runs
    CHECK(host->world().script(c)->enabled);

    next.reset();
    CHECK(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
}

TEST_CASE("GenerationSwap: instances made ahead are the ones the swap keeps, and a constructor "
          "that throws ahead is an error that changes nothing") {
    TempDir dir("generation-swap");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("1")}});
    // Each instance numbers itself as it is constructed (a static count per generation).
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Counter.cs", counter("10", "    static int made;\n"
                                      "    [SerializeField] int serial = ++made;\n")}});
    auto v3 = compileScripts(
        dir, "gen3.dll",
        {{"Counter.cs", counter("100", "    public Counter() {\n"
                                       "        throw new System.Exception(\"no instance\");\n"
                                       "    }\n")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    host->tick(0.016);

    std::unique_ptr<ScriptDomain> bad = nextGeneration(*host, v3);
    auto refused = instantiateAhead(*host, *bad);
    REQUIRE_FALSE(refused);
    CHECK_MESSAGE(refused.error().message.find("no instance") != std::string::npos,
                  refused.error().message);
    CHECK(host->domain()->generation() == 1);
    bad.reset();

    std::unique_ptr<ScriptDomain> next = nextGeneration(*host, v2);
    auto ahead = instantiateAhead(*host, *next);
    REQUIRE_MESSAGE(ahead, (ahead ? "" : ahead.error().message));
    CHECK(next->instanceCount() == 1);
    CHECK(next->hasInstance(c, "Counter"));
    ReloadReport report;
    auto old = swapGeneration(*host, next, report);
    REQUIRE_MESSAGE(old, (old ? "" : old.error().phase + ": " + old.error().message));
    CHECK(host->domain()->instanceCount() == 1);
    CHECK(fieldOf<std::int64_t>(*host, c, "serial") == 1); // the first made, not a second
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 1);
    old->reset();
    CHECK(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
}

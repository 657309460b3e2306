// NextDomain: the next reload's domain, made ahead, with the assemblies it is expected to reuse
// loaded into it a slice at a time. Real mcs builds, the real runtime.
#include "../support/mono_test_support.hpp"
#include "next_domain.hpp"

#include <thread>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kHealth =
    "namespace Game { public class Health : UEngine.UMonoScriptComponent { public int hp = 10; } }";

/// Runs preload() in small slices until it is done.
void preloadAll(NextDomain& next) {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    for (;;) {
        const NextDomain::Progress progress = next.preload(std::chrono::microseconds(300));
        if (progress == NextDomain::Progress::Done)
            return;
        REQUIRE(Clock::now() < deadline);
        if (progress == NextDomain::Progress::Waiting)
            std::this_thread::sleep_for(std::chrono::milliseconds(1)); // ScriptCore's warm-up
    }
}

} // namespace

TEST_CASE("NextDomain: made with the assemblies to reuse, it loads them ahead in slices and hands "
          "the domain to one reload") {
    TempDir dir("next-domain");
    AssemblyFile core = compileScripts(dir, "Core.dll", {{"Health.cs", kHealth}});
    auto host = makeHostFrom(core);
    NextDomain next(*host);
    CHECK_FALSE(next.exists());
    CHECK(next.preload(std::chrono::milliseconds(1)) == NextDomain::Progress::Done); // none yet

    REQUIRE(next.make(Clock::time_point::max(), {core.path}));
    CHECK(next.exists());
    CHECK_FALSE(next.complete());
    CHECK_FALSE(next.make(Clock::time_point::max(), {core.path})); // one at a time
    preloadAll(next);
    CHECK(next.complete());

    std::unique_ptr<ScriptDomain> taken = next.take();
    REQUIRE(taken != nullptr);
    CHECK(taken->preloadedAssemblies() == std::vector<std::string>{"Core.dll"});
    CHECK_FALSE(next.exists());
    CHECK(next.take() == nullptr);
    (void)taken->unloadInBackground();
}

TEST_CASE(
    "NextDomain: an assembly gone from disk leaves nothing to load ahead, and one that does not "
    "load drops the domain until the next reload") {
    TempDir dir("next-domain-bad");
    AssemblyFile core = compileScripts(dir, "Core.dll", {{"Health.cs", kHealth}});
    auto host = makeHostFrom(core);
    NextDomain next(*host);

    REQUIRE(next.make(Clock::time_point::max(), {dir / "Gone.dll"}));
    CHECK(next.complete());
    std::unique_ptr<ScriptDomain> first = next.take();
    REQUIRE(first != nullptr);
    CHECK(first->preloadedAssemblies().empty());
    (void)first->unloadInBackground();

    AssemblyFile quitter = compileScripts(
        dir, "Quit.dll",
        {{"Quit.cs", "public class Quit : UEngine.UMonoScriptComponent { public override void "
                     "Update(float dt) { System.Environment.Exit(3); } }"}});
    REQUIRE(next.make(Clock::time_point::max(), {quitter.path}));
    preloadAll(next);
    CHECK_FALSE(next.exists());
    CHECK_FALSE(next.make(Clock::time_point::max(), {}));            // not again before a reload
    CHECK(next.take() == nullptr);                                   // a reload starts
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30))); // the dropped one's
    CHECK(next.make(Clock::time_point::max(), {}));
    std::unique_ptr<ScriptDomain> again = next.take();
    REQUIRE(again != nullptr);
    (void)again->unloadInBackground();
}

TEST_CASE("NextDomain: a build submitted says what it reuses: what the domain lacks of it is "
          "loaded ahead too, and a domain that loaded what the build replaces is dropped for "
          "one made anew") {
    TempDir dir("next-domain-expect");
    AssemblyFile core = compileScripts(dir, "Core.dll", {{"Health.cs", kHealth}});
    AssemblyFile leafA = compileScripts(
        dir, "LeafA.dll",
        {{"A.cs", "namespace Game { public class A : UEngine.UMonoScriptComponent {} }"}});
    AssemblyFile leafB = compileScripts(
        dir, "LeafB.dll",
        {{"B.cs", "namespace Game { public class B : UEngine.UMonoScriptComponent {} }"}});
    auto host = makeHostFrom(core);
    NextDomain next(*host);
    next.expect({core.path}); // no domain: nothing to do
    CHECK_FALSE(next.exists());

    REQUIRE(next.make(Clock::time_point::max(), {core.path}));
    preloadAll(next);
    REQUIRE(next.complete());
    next.expect({core.path, leafA.path}); // Core is loaded; LeafA is queued
    CHECK_FALSE(next.complete());
    preloadAll(next);
    CHECK(next.complete());
    next.expect({core.path, leafA.path}); // nothing new
    CHECK(next.complete());

    next.expect({core.path, leafB.path}); // LeafA is rebuilt: the domain cannot serve
    CHECK_FALSE(next.exists());
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    REQUIRE(next.make(Clock::time_point::max(), {core.path, leafB.path}));
    preloadAll(next);
    std::unique_ptr<ScriptDomain> taken = next.take();
    REQUIRE(taken != nullptr);
    CHECK(taken->preloadedAssemblies() == std::vector<std::string>{"Core.dll", "LeafB.dll"});
    (void)taken->unloadInBackground();
}

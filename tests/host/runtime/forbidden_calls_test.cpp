// findForbiddenCalls: the IL scan that refuses scripts calling what would end or hang the
// host. Real mcs builds with .mdb symbols, loaded into a generation domain as the host does.
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/runtime/forbidden_calls.hpp"
#include "runtime/generation_domain.hpp"

#include <algorithm>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// Loads ScriptCore and `scripts` into a fresh generation domain, scans the scripts.
std::vector<mono::ForbiddenCall> scan(const AssemblyFile& scripts) {
    ScriptHostOptions options;
    options.registerInternalCalls = glue::registerEngineInternalCalls;
    options.scriptCore = SCRIPTHOST_SCRIPTCORE_DLL;
    auto host = ScriptHost::create(options); // starts the runtime
    REQUIRE(host);
    auto domain = mono::GenerationDomain::create(900);
    REQUIRE(domain);
    auto core = AssemblyFile::read(SCRIPTHOST_SCRIPTCORE_DLL);
    REQUIRE(core);
    REQUIRE(domain->load(*core, true));
    auto image = domain->load(scripts, false);
    REQUIRE_MESSAGE(image, (image ? "" : image.error().message));
    return mono::findForbiddenCalls(*image);
}

int lineIn(const std::string& text, const std::string& marker) {
    int line = 1;
    const auto at = text.find(marker);
    REQUIRE(at != std::string::npos);
    return line + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

const std::string kCalls = R"(using System;
using System.Runtime.InteropServices;
using System.Threading;
public class Calls : UEngine.UMonoScriptComponent {
    [DllImport("libc")] static extern void exit(int code);
    public override void Update(float dt) {
        if (dt > 1) Environment.Exit(3); // exit
        if (dt > 2) Environment.FailFast("a"); // failfast1
        if (dt > 3) Environment.FailFast("b", null); // failfast2
        Action<int> quit = Environment.Exit; // ldftn
        if (dt > 4) AppDomain.Unload(AppDomain.CurrentDomain); // unload
        if (dt > 5) exit(4); // pinvoke
        ThreadPool.QueueUserWorkItem(_ => Thread.ResetAbort()); // lambda
    }
}
)";

const std::string kAllowed = R"(using System;
using System.Runtime.InteropServices;
using System.Threading;
namespace Fake { public static class Environment { public static void Exit(int code) { } } }
public class Fine : UEngine.UMonoScriptComponent {
    [DllImport("libc")] static extern int getpid();
    public override void Update(float dt) {
        Fake.Environment.Exit(1);
        int t = System.Environment.TickCount + getpid();
        Thread.Sleep(0);
        switch (t & 3) { case 0: t++; break; case 1: t--; break; case 2: t += 2; break; }
        long big = 1L << 40; double d = 0.5 * big; float f = (float)d;
        UEngine.Debug.Log(t.ToString() + f);
    }
}
)";

} // namespace

TEST_CASE("findForbiddenCalls: every forbidden call is found with its file, line, caller and "
          "reason") {
    TempDir dir("forbidden-scan");
    const AssemblyFile scripts = compileScripts(dir, "calls.dll", {{"Calls.cs", kCalls}});
    const std::vector<mono::ForbiddenCall> found = scan(scripts);

    auto at = [&](const std::string& marker) -> const mono::ForbiddenCall* {
        const int line = lineIn(kCalls, "// " + marker);
        const auto it = std::ranges::find_if(
            found, [&](const mono::ForbiddenCall& c) { return c.line == std::uint32_t(line); });
        return it == found.end() ? nullptr : &*it;
    };
    std::string all;
    for (const auto& c : found)
        all += c.message() + "\n";
    REQUIRE_MESSAGE(found.size() == 7, all);
    for (const char* marker : {"exit", "failfast1", "failfast2", "ldftn", "unload", "pinvoke"}) {
        const mono::ForbiddenCall* call = at(marker);
        REQUIRE_MESSAGE(call != nullptr, marker << "\n" << all);
        CHECK(call->file == "Calls.cs");
        CHECK(call->caller == "Calls.Update");
        CHECK_FALSE(call->reason.empty());
    }
    CHECK(at("exit")->callee == "System.Environment.Exit");
    CHECK(at("failfast1")->callee == "System.Environment.FailFast");
    CHECK(at("failfast2")->callee == "System.Environment.FailFast");
    CHECK(at("ldftn")->callee == "System.Environment.Exit");
    CHECK(at("unload")->callee == "System.AppDomain.Unload");
    CHECK(at("pinvoke")->callee == "native exit (from libc)");
    REQUIRE(at("lambda") != nullptr);
    CHECK(at("lambda")->callee == "System.Threading.Thread.ResetAbort");
    CHECK(at("lambda")->caller.starts_with("Calls"));
    CHECK(at("exit")->message() ==
          "Calls.cs:" + std::to_string(lineIn(kCalls, "// exit")) +
              ": Calls.Update calls System.Environment.Exit, which would end the host; scripts "
              "may not call it (the host is stopped from outside: scriptctl stop, SIGTERM, or "
              "run --frames)");
}

TEST_CASE("findForbiddenCalls: look-alikes, harmless corlib calls and other P/Invokes pass, "
          "whatever the operand sizes around them") {
    TempDir dir("forbidden-allowed");
    const AssemblyFile scripts = compileScripts(dir, "fine.dll", {{"Fine.cs", kAllowed}});
    const std::vector<mono::ForbiddenCall> found = scan(scripts);
    std::string all;
    for (const auto& c : found)
        all += c.message() + "\n";
    CHECK_MESSAGE(found.empty(), all);
}

TEST_CASE("findForbiddenCalls: the table names every method and native function with a reason") {
    for (const mono::ForbiddenMethod& m : mono::forbiddenMethods())
        CHECK_FALSE(m.reason.empty());
    for (const mono::ForbiddenImport& i : mono::forbiddenImports())
        CHECK_FALSE(i.reason.empty());
    const auto names = mono::forbiddenMethods();
    for (const char* method : {"Exit", "FailFast", "ResetAbort", "Unload"})
        CHECK(std::ranges::any_of(names, [&](const auto& m) { return m.method == method; }));
}

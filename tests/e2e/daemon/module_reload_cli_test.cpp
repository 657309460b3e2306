// End-to-end: the game module's C++ reloads live. The test builds a small module with the
// real compiler, runs the real host with it, rebuilds the module while the host runs, and
// reads through the control socket what the module's code and the scripts see: a changed
// constant arrives through an internal call, the module's own state and the scripts'
// values are kept, a file that is not a module is refused, and a build that crashes in its
// first frames is replaced by the previous one. Every wait has a deadline.
#include "../support/daemon_client.hpp"
#include "../support/module_build_support.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

// VALUE: what Probe.Native.Value() returns; CRASH: a statement run by the system each frame.
std::string moduleSource(int value, const std::string& crash = "") {
    return R"(#include "scripthost/game/game_module.hpp"
#include <string>

namespace { int frames = 0; }

extern "C" int probe_value() { return )" +
           std::to_string(value) + R"(; }
extern "C" int probe_frames() { return frames; }

static std::string saveFrames() { return std::to_string(frames); }
static scripthost::Result<void> restoreFrames(std::string_view state) {
    frames = std::stoi(std::string(state));
    return {};
}
SCRIPTHOST_GAME_STATE(saveFrames, restoreFrames)

SCRIPTHOST_GAME_MODULE(registry, info) {
    info = {"probe", "1.)" +
           std::to_string(value) + R"("};
    registry.registerInternalCall<&probe_value>("Probe.Native::Value");
    registry.registerInternalCall<&probe_frames>("Probe.Native::Frames");
    registry.addSystem("count", scripthost::game::SystemPhase::BeforeScripts,
        [](scripthost::game::GameWorld&, const scripthost::game::FrameTime&) {
            ++frames;
            )" +
           crash + R"(
        });
    return {};
}
)";
}

const char* kReader = R"(using System.Runtime.CompilerServices;
using UEngine;
namespace Probe {
    public static class Native {
        [MethodImpl(MethodImplOptions.InternalCall)] public static extern int Value();
        [MethodImpl(MethodImplOptions.InternalCall)] public static extern int Frames();
    }
}
public class Reader : UMonoScriptComponent {
    [SerializeField] int value;
    [SerializeField] int moduleFrames;
    [SerializeField] int kept = 5;
    public override void Update(float dt) {
        value = Probe.Native.Value();
        moduleFrames = Probe.Native.Frames();
    }
}
)";

int field(scripthost::control::ControlClient& client, const std::string& name) {
    return fieldValue(client, "Reader", "Reader", name).get<int>();
}

/// The status once the last module reload's outcome is `outcome` (with a deadline).
json waitForModuleReload(scripthost::control::ControlClient& client, HostProcess& host,
                         const std::string& outcome) {
    json status;
    REQUIRE_MESSAGE(waitUntil(
                        [&] {
                            status = callOk(client, "status");
                            return status["lastModuleReload"]["outcome"] == outcome;
                        },
                        60s),
                    host.output());
    return status;
}

} // namespace

TEST_CASE("module reload: a rebuilt module runs its new code with its state and every script "
          "value kept - a bad file is refused - a build that crashes at once is rolled back - "
          "a build copied over the running library in place") {
    TempDir dir("module-reload");
    const fs::path library = dir.path() / "libprobe.so";
    buildModule(dir.path(), library, moduleSource(1));
    writeFile(dir.path() / "scripts" / "Reader.cs", kReader);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", (dir.path() / "scripts").string(), "--game",
                      library.string(), "--control", socket.string()});
    auto client = connectTo(socket, host);

    REQUIRE_MESSAGE(
        waitUntil([&] { return field(client, "value") == 1 && field(client, "moduleFrames") > 10; },
                  60s),
        host.output());
    json status = callOk(client, "status");
    CHECK(status["gameModuleGeneration"] == 1);
    CHECK(status["lastModuleReload"].is_null());
    const int scriptGeneration = status["generation"];
    callOk(client, "set",
           {{"entity", "Reader"}, {"script", "Reader"}, {"field", "kept"}, {"value", 42}});

    // A changed constant: the new build's internal call answers, after the scripts reloaded.
    const int framesBefore = field(client, "moduleFrames");
    buildModule(dir.path(), library, moduleSource(2));
    REQUIRE_MESSAGE(waitUntil([&] { return field(client, "value") == 2; }, 60s), host.output());
    status = callOk(client, "status");
    CHECK(status["gameModuleGeneration"] == 2);
    CHECK(status["lastModuleReload"]["outcome"] == "swapped");
    CHECK(status["lastModuleReload"]["stateCarried"] == true);
    CHECK(status["generation"].get<int>() > scriptGeneration);
    // The module's own counter went on from where the old build left it.
    CHECK(field(client, "moduleFrames") >= framesBefore);
    CHECK(field(client, "kept") == 42);

    // Not a module: refused, build 2 runs on.
    writeFile(library, "this is not a shared library\n");
    status = waitForModuleReload(client, host, "failed");
    CHECK(status["gameModuleGeneration"] == 2);
    CHECK_MESSAGE(status["lastModuleReload"]["text"].get<std::string>().find("not an ELF") !=
                      std::string::npos,
                  status.dump());
    const int framesAfterRefusal = field(client, "moduleFrames");
    CHECK(waitUntil([&] { return field(client, "moduleFrames") > framesAfterRefusal; }, 30s));

    // A build whose system dereferences null on its first frame: build 2 comes back.
    buildModule(
        dir.path(), library,
        moduleSource(3, "int* volatile nowhere = nullptr; *(volatile int*)nowhere = frames;"));
    status = waitForModuleReload(client, host, "rolled back");
    CHECK(status["gameModuleGeneration"] == 2);
    CHECK(status["gameModuleCrash"].is_null());
    CHECK_MESSAGE(status["lastModuleReload"]["text"].get<std::string>().find("SIGSEGV") !=
                      std::string::npos,
                  status.dump());
    // Build 2's code runs again: its system counts and the scripts read its constant.
    const int framesAfterRollback = field(client, "moduleFrames");
    CHECK(waitUntil(
        [&] {
            return field(client, "value") == 2 &&
                   field(client, "moduleFrames") > framesAfterRollback + 5;
        },
        60s));
    CHECK(field(client, "kept") == 42);

    // A build copied over the library in place (as `cp` does, unlike ld): the running build
    // is a private copy, so it goes on until the new one is swapped in.
    const fs::path elsewhere = dir.path() / "libprobe-next.so";
    buildModule(dir.path(), elsewhere, moduleSource(4));
    fs::copy_file(elsewhere, library, fs::copy_options::overwrite_existing);
    REQUIRE_MESSAGE(waitUntil([&] { return field(client, "value") == 4; }, 60s), host.output());
    CHECK(callOk(client, "status")["gameModuleGeneration"] == 4);
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

TEST_CASE("module build: --game-build runs the build when a module source is saved and the "
          "new build is swapped in - a build that fails is reported and the running build "
          "goes on") {
    TempDir dir("module-build");
    const fs::path sources = dir.path() / "src";
    const fs::path library = dir.path() / "libprobe.so";
    writeFile(sources / "probe.cpp", moduleSource(1));
    buildModule(dir.path(), library, moduleSource(1));
    writeFile(dir.path() / "scripts" / "Reader.cs", kReader);
    const std::string command = std::string(SCRIPTHOST_CXX) + " -std=c++23 -shared -fPIC -O0 -I" +
                                SCRIPTHOST_SOURCE_DIR + "/sdk/include " +
                                (sources / "probe.cpp").string() + " -o " + library.string();
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", (dir.path() / "scripts").string(), "--game",
                      library.string(), "--game-build", command, "--game-sources", sources.string(),
                      "--control", socket.string()});
    auto client = connectTo(socket, host);
    REQUIRE_MESSAGE(waitUntil([&] { return field(client, "value") == 1; }, 60s), host.output());
    CHECK(callOk(client, "status")["moduleBuild"]["last"].is_null());

    // Saved: built by the host's command, then swapped in like any new build.
    writeFile(sources / "probe.cpp", moduleSource(2));
    REQUIRE_MESSAGE(waitUntil([&] { return field(client, "value") == 2; }, 90s), host.output());
    json status = callOk(client, "status");
    CHECK(status["moduleBuild"]["last"]["success"] == true);
    CHECK(status["moduleBuild"]["last"]["trigger"][0] == "probe.cpp");
    CHECK(status["gameModuleGeneration"] == 2);

    // A syntax error: the build fails, its output says why, build 2 runs on.
    writeFile(sources / "probe.cpp", moduleSource(3) + "\nthis is not C++;\n");
    REQUIRE_MESSAGE(waitUntil(
                        [&] {
                            status = callOk(client, "status");
                            return status["moduleBuild"]["last"]["success"] == false;
                        },
                        90s),
                    host.output());
    CHECK(status["moduleBuild"]["last"]["exitCode"] != 0);
    CHECK_MESSAGE(status["moduleBuild"]["last"]["outputTail"].get<std::string>().find("error") !=
                      std::string::npos,
                  status.dump());
    CHECK(status["gameModuleGeneration"] == 2);
    CHECK(field(client, "value") == 2);
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

// End-to-end: a script class written in C++ (a native script) used from C# through its
// generated proxy. The test builds a small module with the real compiler and runs the real
// host with it and a C# script that adds the native script, reads and writes its fields and
// calls its method through compile-time types. Through the control socket it checks what the
// C# script sees and what `get`/`set` see, across a script reload, a module reload that
// changes the method's code (the native values carried), a build without the class (the
// script parked, the C# side sees none) and the class coming back (revived with its values),
// and a destroyed native script's proxy (MissingReferenceException); and a project of
// assemblies by folder, where every assembly reaches the proxies. Every wait has a deadline.
#include "../support/daemon_client.hpp"
#include "../support/module_build_support.hpp"

#include <doctest/doctest.h>
#include <functional>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

// FACTOR: what Counter.Scaled multiplies by; WITH_CLASS: whether the build registers Counter.
std::string moduleSource(int factor, bool withClass = true) {
    return R"(#include "scripthost/game/game_module.hpp"
#include <cstdint>
#include <string>

namespace {
struct Counter : scripthost::game::NativeScript {
    float speed = 1.5f;
    std::int32_t ticks = 0;
    std::string label = "start";
    scripthost::ObjectId buddy;
    void update(float) override { ++ticks; }
    float scaled(float x) { return x * )" +
           std::to_string(factor) + R"(; }
    void rename(std::int32_t n) { label = "renamed " + std::to_string(n); }
};
}

SCRIPTHOST_GAME_MODULE(registry, info) {
    info = {"probe", ")" +
           std::to_string(factor) + R"("};
    if ()" +
           (withClass ? "true" : "false") + R"()
        registry.registerScript(scripthost::game::NativeScriptClass<Counter>("Probe.Counter", "counts frames")
                                    .field("speed", &Counter::speed)
                                    .field("ticks", &Counter::ticks)
                                    .field("label", &Counter::label)
                                    .field("buddy", &Counter::buddy)
                                    .method<&Counter::scaled>("Scaled")
                                    .method<&Counter::rename>("Rename"));
    return {};
}
)";
}

// VERSION: a constant the test edits to make a script reload.
std::string userSource(int version) {
    return R"(using UEngine;
public class User : UMonoScriptComponent {
    [SerializeField] int version;
    [SerializeField] bool present;
    [SerializeField] float speedSeen;
    [SerializeField] int ticksSeen;
    [SerializeField] float scaled;
    [SerializeField] string labelSeen;
    [SerializeField] string buddySeen;
    [SerializeField] bool destroyNow;
    [SerializeField] bool missingThrown;
    [SerializeField] int renameTo;
    [SerializeField] bool addNow;
    [SerializeField] int addedCount;
    [SerializeField] float addedSpeed;
    Probe.Counter gone;
    public override void Initialize() {
        Probe.Counter counter = gameObject.AddComponent<Probe.Counter>();
        counter.speed = 2.5f;
        counter.buddy = gameObject;
    }
    public override void Update(float dt) {
        version = )" +
           std::to_string(version) + R"(;
        if (addNow) {
            addNow = false;
            Probe.Counter extra = gameObject.AddComponent<Probe.Counter>();
            extra.speed = 7f + addedCount;
            addedSpeed = extra.speed;
            addedCount++;
        }
        if (!ReferenceEquals(gone, null)) { // == null once destroyed, as in Unity: use it anyway
            try { float s = gone.speed; } catch (MissingReferenceException) { missingThrown = true; }
        }
        Probe.Counter c = gameObject.GetComponent<Probe.Counter>();
        present = c != null;
        if (c == null) return;
        speedSeen = c.speed;
        ticksSeen = c.ticks;
        scaled = c.Scaled(2);
        if (renameTo != 0) { c.Rename(renameTo); renameTo = 0; }
        labelSeen = c.label;
        buddySeen = c.buddy == null ? "null" : c.buddy.name;
        if (destroyNow) { destroyNow = false; gone = c; UObject.Destroy(c); }
    }
}
)";
}

json userField(scripthost::control::ControlClient& client, const std::string& name) {
    return fieldValue(client, "User", "User", name);
}

json nativeField(scripthost::control::ControlClient& client, const std::string& name) {
    return fieldValue(client, "User", "Probe.Counter", name);
}

// The host's status once `reached` says yes of it (within 60 s).
json waitForStatus(scripthost::control::ControlClient& client, HostProcess& host,
                   const std::function<bool(const json&)>& reached) {
    json status;
    REQUIRE_MESSAGE(waitUntil(
                        [&] {
                            status = callOk(client, "status");
                            return reached(status);
                        },
                        60s),
                    host.output());
    return status;
}

json waitForModuleReload(scripthost::control::ControlClient& client, HostProcess& host,
                         int generation) {
    return waitForStatus(client, host, [&](const json& status) {
        return status["gameModuleGeneration"] == generation;
    });
}

// The status once a scripts' reload after the `okBefore`th has ended.
json waitForScriptReload(scripthost::control::ControlClient& client, HostProcess& host,
                         int okBefore) {
    return waitForStatus(client, host, [&](const json& status) {
        return status["reloads"]["ok"].get<int>() > okBefore && status["reloadBusy"] == false;
    });
}

} // namespace

TEST_CASE("native scripts: C# adds one and uses its generated proxy (fields and methods) - "
          "scriptctl get and set reach it - its values survive a script reload and a module "
          "reload - a build without its class parks it and its return revives it - a "
          "destroyed one raises MissingReferenceException") {
    TempDir dir("native-script");
    const fs::path library = dir.path() / "libprobe.so";
    buildModule(dir.path(), library, moduleSource(1));
    writeFile(dir.path() / "scripts" / "User.cs", userSource(1));
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", (dir.path() / "scripts").string(), "--game",
                      library.string(), "--control", socket.string()});
    auto client = connectTo(socket, host);

    // The C# script added it, wrote two fields and reads them back through the proxy.
    REQUIRE_MESSAGE(waitUntil([&] { return userField(client, "ticksSeen").get<int>() > 5; }, 60s),
                    host.output());
    CHECK(userField(client, "present") == true);
    CHECK(userField(client, "speedSeen") == 2.5);
    CHECK(userField(client, "scaled") == 2.0);
    CHECK(userField(client, "labelSeen") == "start");
    CHECK(userField(client, "buddySeen") == "User");
    // The control socket sees the native script's fields like a C# script's.
    CHECK(nativeField(client, "speed") == 2.5);
    CHECK(nativeField(client, "label") == "start");
    CHECK(nativeField(client, "ticks").get<int>() > 5);
    callOk(client, "set",
           {{"entity", "User"}, {"script", "Probe.Counter"}, {"field", "speed"}, {"value", 4}});
    REQUIRE(waitUntil([&] { return userField(client, "speedSeen") == 4.0; }, 30s));
    callOk(client, "set",
           {{"entity", "User"}, {"script", "User"}, {"field", "renameTo"}, {"value", 7}});
    REQUIRE(waitUntil([&] { return userField(client, "labelSeen") == "renamed 7"; }, 30s));

    // A script reload: the proxy is rebuilt, the native object and its values untouched.
    writeFile(dir.path() / "scripts" / "User.cs", userSource(2));
    REQUIRE_MESSAGE(waitUntil([&] { return userField(client, "version") == 2; }, 60s),
                    host.output());
    CHECK(userField(client, "speedSeen") == 4.0);
    CHECK(userField(client, "labelSeen") == "renamed 7");
    CHECK(userField(client, "scaled") == 2.0);
    // AddComponent from the new generation's code.
    callOk(client, "set",
           {{"entity", "User"}, {"script", "User"}, {"field", "addNow"}, {"value", true}});
    REQUIRE(waitUntil([&] { return userField(client, "addedCount") == 1; }, 30s));
    CHECK(userField(client, "addedSpeed") == 7.0);

    // A module reload that changes the method: its values are carried into the new build's
    // object, and the proxies call the new code.
    const int ticksBefore = nativeField(client, "ticks").get<int>();
    buildModule(dir.path(), library, moduleSource(3));
    json status = waitForModuleReload(client, host, 2);
    CHECK_MESSAGE(status["lastModuleReload"]["text"].get<std::string>().find(
                      "2 native script(s) carried") != std::string::npos,
                  status.dump());
    REQUIRE_MESSAGE(waitUntil([&] { return userField(client, "scaled") == 6.0; }, 60s),
                    host.output());
    CHECK(nativeField(client, "speed") == 4.0);
    CHECK(nativeField(client, "label") == "renamed 7");
    CHECK(nativeField(client, "ticks").get<int>() >= ticksBefore);
    CHECK(userField(client, "buddySeen") == "User");

    // A build without the class: the native script is parked (its values kept aside) and C#
    // finds none; the class's return revives it with those values.
    buildModule(dir.path(), library, moduleSource(3, false));
    status = waitForModuleReload(client, host, 3);
    CHECK_MESSAGE(status["lastModuleReload"]["text"].get<std::string>().find("2 parked") !=
                      std::string::npos,
                  status.dump());
    REQUIRE_MESSAGE(waitUntil([&] { return userField(client, "present") == false; }, 60s),
                    host.output());
    const int reloadsBefore = callOk(client, "status")["reloads"]["ok"];
    buildModule(dir.path(), library, moduleSource(5));
    status = waitForModuleReload(client, host, 4);
    CHECK_MESSAGE(status["lastModuleReload"]["text"].get<std::string>().find("2 revived") !=
                      std::string::npos,
                  status.dump());
    REQUIRE_MESSAGE(waitUntil([&] { return userField(client, "scaled") == 10.0; }, 60s),
                    host.output());
    CHECK(nativeField(client, "speed") == 4.0);
    CHECK(userField(client, "labelSeen") == "renamed 7");
    // AddComponent against the revived class's build.
    callOk(client, "set",
           {{"entity", "User"}, {"script", "User"}, {"field", "addNow"}, {"value", true}});
    REQUIRE(waitUntil([&] { return userField(client, "addedCount") == 2; }, 30s));
    CHECK(userField(client, "addedSpeed") == 8.0);

    // Destroyed: the proxy a script kept raises MissingReferenceException. (Kept in a field a
    // reload does not carry: first the scripts' reload against the new build must be over.)
    (void)waitForScriptReload(client, host, reloadsBefore);
    callOk(client, "set",
           {{"entity", "User"}, {"script", "User"}, {"field", "destroyNow"}, {"value", true}});
    REQUIRE_MESSAGE(waitUntil([&] { return userField(client, "missingThrown") == true; }, 30s),
                    host.output());
    // GetComponent now finds the first one AddComponent added later.
    CHECK(waitUntil([&] { return userField(client, "speedSeen") == 7.0; }, 30s));
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

namespace {

const char* kShapesModule = R"(#include "scripthost/game/game_module.hpp"
#include <cstdint>

namespace {
struct Square : scripthost::game::NativeScript {
    float side = 3;
    float area() { return side * side; }
};
struct Crasher : scripthost::game::NativeScript {
    bool armed = false;
    void update(float) override {
        if (armed) {
            int* volatile nowhere = nullptr;
            *nowhere = 1;
        }
    }
};
}

SCRIPTHOST_GAME_MODULE(registry, info) {
    info = {"shapes", "1"};
    registry.registerScript(scripthost::game::NativeScriptClass<Square>("Probe.Square")
                                .implements("Probe.Shape")
                                .field("side", &Square::side)
                                .method<&Square::area>("Area"));
    registry.registerScript(scripthost::game::NativeScriptClass<Crasher>("Probe.Crasher")
                                .field("armed", &Crasher::armed));
    return {};
}
)";

// A C# abstract class a native class implements, and a script that only knows the base.
const char* kShapeUser = R"(using System;
using UEngine;
namespace Probe {
    public abstract class Shape : UNativeScript {
        public abstract float Area();
    }
}
public class ShapeUser : UMonoScriptComponent {
    [SerializeField] float area;
    [SerializeField] string shapeType;
    [SerializeField] int frames;
    [SerializeField] string afterCrash;
    public override void Initialize() {
        gameObject.AddComponent<Probe.Square>();
        gameObject.AddComponent<Probe.Crasher>();
    }
    public override void Update(float dt) {
        frames++;
        Probe.Shape shape = gameObject.GetComponent<Probe.Shape>();
        shapeType = shape == null ? "none" : shape.GetType().FullName;
        try { area = shape.Area(); }
        catch (InvalidOperationException e) { afterCrash = e.Message; }
    }
}
)";

} // namespace

TEST_CASE("native scripts: a C++ class implements a C# abstract class - a crash in a native "
          "script switches the module off and the host and the C# scripts go on") {
    TempDir dir("native-shapes");
    const fs::path library = dir.path() / "libshapes.so";
    buildModule(dir.path(), library, kShapesModule);
    writeFile(dir.path() / "scripts" / "ShapeUser.cs", kShapeUser);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", (dir.path() / "scripts").string(), "--game",
                      library.string(), "--control", socket.string()});
    auto client = connectTo(socket, host);
    auto user = [&](const std::string& name) {
        return fieldValue(client, "ShapeUser", "ShapeUser", name);
    };
    REQUIRE_MESSAGE(waitUntil([&] { return user("area") == 9.0; }, 60s), host.output());
    CHECK(user("shapeType") == "Probe.Square");
    callOk(client, "set",
           {{"entity", "ShapeUser"}, {"script", "Square"}, {"field", "side"}, {"value", 4}});
    REQUIRE(waitUntil([&] { return user("area") == 16.0; }, 30s));

    // The crasher's update dereferences null once armed: caught, reported, module off.
    callOk(client, "set",
           {{"entity", "ShapeUser"}, {"script", "Crasher"}, {"field", "armed"}, {"value", true}});
    json status;
    REQUIRE_MESSAGE(waitUntil(
                        [&] {
                            status = callOk(client, "status");
                            return status["gameModuleCrash"].is_string();
                        },
                        30s),
                    host.output());
    const std::string crash = status["gameModuleCrash"];
    CHECK_MESSAGE(crash.find("native script Probe.Crasher") != std::string::npos, crash);
    CHECK_MESSAGE(crash.find("SIGSEGV") != std::string::npos, crash);
    // Counted with the scripts' failures (status, smoke mode), as a C# script's would be.
    CHECK(status["failures"].get<int>() >= 1);
    // The C# script goes on; its proxy calls now raise instead of running switched-off code.
    const int framesAtCrash = user("frames").get<int>();
    REQUIRE(waitUntil([&] { return user("frames").get<int>() > framesAtCrash + 10; }, 30s));
    CHECK_MESSAGE(user("afterCrash").get<std::string>().find("switched off") != std::string::npos,
                  user("afterCrash").dump());
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

namespace {

// FACTOR: what Counter.Scaled multiplies by; WITH_LAPS: whether Counter has a field `laps`
// (its proxy's text changes with it).
std::string foldersModule(int factor, bool withLaps) {
    return R"(#include "scripthost/game/game_module.hpp"
#include <cstdint>

namespace {
struct Counter : scripthost::game::NativeScript {
    std::int32_t ticks = 0;
    std::int32_t laps = 0;
    void update(float) override { ++ticks; }
    float scaled(float x) { return x * )" +
           std::to_string(factor) + R"(; }
};
struct Square : scripthost::game::NativeScript {
    float side = 3;
    float area() { return side * side; }
};
}

SCRIPTHOST_GAME_MODULE(registry, info) {
    info = {"folders", ")" +
           std::to_string(factor) + R"("};
    auto counter = scripthost::game::NativeScriptClass<Counter>("Probe.Counter")
                       .field("ticks", &Counter::ticks)
                       .method<&Counter::scaled>("Scaled");
    if ()" +
           (withLaps ? "true" : "false") +
           R"()
        counter.field("laps", &Counter::laps);
    registry.registerScript(std::move(counter));
    registry.registerScript(scripthost::game::NativeScriptClass<Square>("Probe.Square")
                                .implements("Probe.Shape")
                                .field("side", &Square::side)
                                .method<&Square::area>("Area"));
    return {};
}
)";
}

// Shapes: the C# class Square implements. Gameplay (a definition referencing Shapes) names the
// native Counter, so it needs the proxies' assembly; the loose script names Square, whose proxy
// needs Shapes: the default assembly's.
void writeFolderScripts(const fs::path& scripts) {
    writeFile(scripts / "Shapes" / "Shapes.asmdef", R"({"name": "Shapes"})");
    writeFile(scripts / "Shapes" / "Shape.cs", R"(namespace Probe {
    public abstract class Shape : UEngine.UNativeScript { public abstract float Area(); }
})");
    writeFile(scripts / "Gameplay" / "Gameplay.asmdef",
              R"({"name": "Gameplay", "references": ["Shapes"]})");
    writeFile(scripts / "Gameplay" / "Runner.cs", R"(using UEngine;
public class Runner : UMonoScriptComponent {
    [SerializeField] int ticksSeen;
    [SerializeField] float scaled;
    [SerializeField] int kept;
    public override void Initialize() { gameObject.AddComponent<Probe.Counter>(); kept = 41; }
    public override void Update(float dt) {
        Probe.Counter counter = gameObject.GetComponent<Probe.Counter>();
        ticksSeen = counter.ticks;
        scaled = counter.Scaled(2);
    }
}
)");
    writeFile(scripts / "Measure.cs", R"(using UEngine;
public class Measure : UMonoScriptComponent {
    [SerializeField] float area;
    public override void Initialize() { gameObject.AddComponent<Probe.Square>(); }
    public override void Update(float dt) {
        area = gameObject.GetComponent<Probe.Shape>().Area();
    }
}
)");
}

} // namespace

TEST_CASE("native scripts: with assemblies by folder a script of any assembly names a native "
          "class, a native class implements a C# class of another assembly, and a module build "
          "rebuilds the assemblies only when its native classes changed") {
    TempDir dir("native-folders");
    const fs::path library = dir.path() / "libfolders.so";
    buildModule(dir.path(), library, foldersModule(1, false));
    const fs::path scripts = dir.path() / "scripts";
    writeFolderScripts(scripts);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", scripts.string(), "--game",
                      library.string(), "--control", socket.string()});
    auto client = connectTo(socket, host);
    auto runner = [&](const std::string& name) {
        return fieldValue(client, "Runner", "Runner", name);
    };
    REQUIRE_MESSAGE(waitUntil([&] { return runner("ticksSeen").get<int>() > 3; }, 60s),
                    host.output());
    CHECK(runner("scaled") == 2.0);
    CHECK(fieldValue(client, "Measure", "Measure", "area") == 9.0);
    callOk(client, "set",
           {{"entity", "Runner"}, {"script", "Runner"}, {"field", "kept"}, {"value", 42}});
    json status = callOk(client, "status");
    const int reloadsBefore = status["reloads"]["ok"];

    // The same native classes, new code: the scripts are loaded again as they are, and call it.
    buildModule(dir.path(), library, foldersModule(3, false));
    status = waitForScriptReload(client, host, reloadsBefore);
    CHECK_MESSAGE(status["lastReload"]["assembliesBuilt"].empty(), status.dump());
    REQUIRE_MESSAGE(waitUntil([&] { return runner("scaled") == 6.0; }, 30s), host.output());

    // A field more on Counter: its proxy's text changed, and every assembly references the
    // proxies' one; the values cross the reload.
    const int reloadsThen = status["reloads"]["ok"];
    buildModule(dir.path(), library, foldersModule(5, true));
    status = waitForScriptReload(client, host, reloadsThen);
    CHECK_MESSAGE(status["lastReload"]["assembliesBuilt"] ==
                      json::array({"NativeScripts", "Shapes", "Gameplay", "Scripts"}),
                  status.dump());
    REQUIRE_MESSAGE(waitUntil([&] { return runner("scaled") == 10.0; }, 30s), host.output());
    CHECK(runner("kept") == 42);
    CHECK(fieldValue(client, "Runner", "Probe.Counter", "laps") == 0);
    CHECK(fieldValue(client, "Measure", "Measure", "area") == 9.0);
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}
